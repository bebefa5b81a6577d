//! Building the converted ops: index arithmetic that folds constants as
//! MLIR's `OpFoldResult` helpers do (so a zero start or a unit stride leaves
//! no op behind), and constructors for the memref, tensor and linalg ops the
//! conversion writes, each with the properties its generic form needs.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Attribute, Ir, OpId, OperationState, RegionId, Type, TypeData, Value};

/// An index that is either known (`Const`) or computed at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ofr {
    Const(i64),
    Val(Value),
}

impl Ofr {
    pub fn constant(self) -> Option<i64> {
        match self {
            Ofr::Const(c) => Some(c),
            Ofr::Val(_) => None,
        }
    }
}

/// Inserts ops before a fixed anchor (or at a block's end), at one location.
pub struct Emitter<'a> {
    pub ir: &'a mut Ir,
    pub ip: InsertPoint,
    pub loc: Attribute,
}

/// The text of an attribute, parsed (for attributes with nested syntax).
pub fn attr_from_text(ir: &mut Ir, text: &str) -> Attribute {
    let owned = text.to_string();
    let mut p = hivm_ir::parser::Parser::new(ir, &owned, "<triton-to-linalg>", 1);
    p.parse_attribute(None).unwrap_or_else(|e| panic!("internal attribute text '{text}': {}", e.msg))
}

pub fn type_from_text(ir: &mut Ir, text: &str) -> Type {
    let owned = text.to_string();
    let mut p = hivm_ir::parser::Parser::new(ir, &owned, "<triton-to-linalg>", 1);
    p.parse_type().unwrap_or_else(|e| panic!("internal type text '{text}': {}", e.msg))
}

pub fn tensor_type(ir: &mut Ir, shape: &[i64], elem: Type) -> Type {
    ir.ty(TypeData::RankedTensor { shape: shape.to_vec(), elem, encoding: None })
}

pub fn shape_of(ir: &Ir, t: Type) -> Vec<i64> {
    ir.type_data(t).shape().map(|s| s.to_vec()).unwrap_or_default()
}

pub fn element_of(ir: &Ir, t: Type) -> Type {
    ir.type_data(t).element_type().unwrap_or(t)
}

/// A memref of `shape` with a strided layout (omitted when it is the identity).
pub fn strided_memref(ir: &mut Ir, shape: &[i64], elem: Type, strides: &[i64], offset: i64) -> Type {
    let identity = offset == 0 && {
        let mut expect = 1i64;
        let mut ok = true;
        for (d, s) in shape.iter().zip(strides).rev() {
            ok &= *s == expect && *d != DYNAMIC;
            expect = expect.saturating_mul(*d);
        }
        ok
    };
    let layout = (!identity).then(|| ir.attr(AttrData::Strided { strides: strides.to_vec(), offset }));
    ir.ty(TypeData::MemRef { shape: shape.to_vec(), elem, layout, memory_space: None })
}

fn split(list: &[Ofr]) -> (Vec<i64>, Vec<Value>) {
    let mut statics = Vec::new();
    let mut dynamics = Vec::new();
    for o in list {
        match o {
            Ofr::Const(c) => statics.push(*c),
            Ofr::Val(v) => {
                statics.push(DYNAMIC);
                dynamics.push(*v);
            }
        }
    }
    (statics, dynamics)
}

impl<'a> Emitter<'a> {
    pub fn new(ir: &'a mut Ir, ip: InsertPoint, loc: Attribute) -> Emitter<'a> {
        Emitter { ir, ip, loc }
    }

    pub fn op(&mut self, name: &str, operands: &[Value], results: &[Type], attrs: Vec<(&str, Attribute)>) -> OpId {
        let mut b = Builder::new(self.ir, self.ip);
        let op = b.op(name, operands, results, attrs, self.loc);
        self.ip = b.ip;
        op
    }

    /// An op with regions, built from an `OperationState`.
    pub fn op_with_regions(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: Vec<(&str, Attribute)>,
        regions: Vec<RegionId>,
    ) -> OpId {
        let sym = self.ir.sym(name);
        let mut st = OperationState::new(sym, self.loc);
        st.operands = operands.to_vec();
        st.result_types = results.to_vec();
        let entries = props.into_iter().map(|(k, v)| (self.ir.sym(k), v)).collect();
        st.properties = Some(self.ir.dict_attr(entries));
        st.regions = regions;
        let mut b = Builder::new(self.ir, self.ip);
        let op = b.create(st);
        self.ip = b.ip;
        op
    }

    pub fn value1(&mut self, name: &str, operands: &[Value], result: Type, attrs: Vec<(&str, Attribute)>) -> Value {
        let op = self.op(name, operands, &[result], attrs);
        self.ir.result(op, 0)
    }

    pub fn index_type(&mut self) -> Type {
        self.ir.index_type()
    }

    pub fn constant(&mut self, value: Attribute, ty: Type) -> Value {
        self.value1("arith.constant", &[], ty, vec![("value", value)])
    }

    pub fn index_const(&mut self, v: i64) -> Value {
        let t = self.ir.index_type();
        let a = self.ir.int_attr(v as i128, t);
        self.constant(a, t)
    }

    pub fn int_const(&mut self, v: i128, ty: Type) -> Value {
        let a = self.ir.int_attr(v, ty);
        self.constant(a, ty)
    }

    pub fn value_of(&mut self, o: Ofr) -> Value {
        match o {
            Ofr::Const(c) => self.index_const(c),
            Ofr::Val(v) => v,
        }
    }

    /// An integer scalar (any width) as an index, through `arith.index_cast`.
    pub fn as_index(&mut self, v: Value) -> Ofr {
        if let Some(c) = hivm_dialects::util::constant_int(self.ir, v) {
            return Ofr::Const(c);
        }
        if matches!(self.ir.type_data(self.ir.value_type(v)), TypeData::Index) {
            return Ofr::Val(v);
        }
        // index -> iN -> index folds back to the index (arith.index_cast's folder).
        if let Some(d) = self.ir.defining_op(v)
            && self.ir.is_op(d, "arith.index_cast")
        {
            let src = self.ir.operand(d, 0);
            if matches!(self.ir.type_data(self.ir.value_type(src)), TypeData::Index) {
                return match hivm_dialects::util::constant_int(self.ir, src) {
                    Some(c) => Ofr::Const(c),
                    None => Ofr::Val(src),
                };
            }
        }
        let t = self.ir.index_type();
        Ofr::Val(self.value1("arith.index_cast", &[v], t, vec![]))
    }

    /// `arith.index_cast` of an index to the integer type `ty`.
    pub fn index_to_int(&mut self, v: Value, ty: Type) -> Value {
        self.value1("arith.index_cast", &[v], ty, vec![])
    }

    fn binary(&mut self, name: &str, a: Ofr, b: Ofr) -> Ofr {
        let (x, y) = (self.value_of(a), self.value_of(b));
        let t = self.ir.index_type();
        Ofr::Val(self.value1(name, &[x, y], t, vec![]))
    }

    /// Constants go on the right of commutative ops, as canonicalization puts them.
    fn commutative(&mut self, name: &str, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(_), Ofr::Val(_)) => self.binary(name, b, a),
            _ => self.binary(name, a, b),
        }
    }

    /// Two operands known at compile time of which one is a value (a loop's
    /// stride, say): the result is a new constant value, as MLIR's folding
    /// of the op on two constants gives (an attribute only from attributes).
    fn fold_values(&mut self, a: Ofr, b: Ofr, f: impl Fn(i64, i64) -> i64) -> Option<Ofr> {
        if matches!((a, b), (Ofr::Const(_), Ofr::Const(_))) {
            return None;
        }
        let known = |o: Ofr| match o {
            Ofr::Const(c) => Some(c),
            Ofr::Val(v) => hivm_dialects::util::constant_int(self.ir, v),
        };
        let (x, y) = (known(a)?, known(b)?);
        Some(Ofr::Val(self.index_const(f(x, y))))
    }

    pub fn add(&mut self, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(x), Ofr::Const(y)) => Ofr::Const(x.wrapping_add(y)),
            (Ofr::Const(0), o) | (o, Ofr::Const(0)) => o,
            _ if let Some(r) = self.fold_values(a, b, i64::wrapping_add) => r,
            _ => {
                // x + (y - x) is y, as arith's canonicalization folds it (a box's
                // start plus its size is the end it was measured from).
                if let Some(y) = self.minuend_if_subtrahend(b, a).or_else(|| self.minuend_if_subtrahend(a, b)) {
                    return y;
                }
                self.commutative("arith.addi", a, b)
            }
        }
    }

    /// `y` when `d` is `arith.subi y, x`.
    fn minuend_if_subtrahend(&self, d: Ofr, x: Ofr) -> Option<Ofr> {
        let Ofr::Val(v) = d else { return None };
        let op = self.ir.defining_op(v).filter(|o| self.ir.is_op(*o, "arith.subi"))?;
        let (y, z) = (self.ir.operand(op, 0), self.ir.operand(op, 1));
        let same = match x {
            Ofr::Val(xv) => xv == z,
            Ofr::Const(c) => hivm_dialects::util::constant_int(self.ir, z) == Some(c),
        };
        same.then(|| match hivm_dialects::util::constant_int(self.ir, y) {
            Some(c) => Ofr::Const(c),
            None => Ofr::Val(y),
        })
    }

    pub fn sub(&mut self, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(x), Ofr::Const(y)) => Ofr::Const(x.wrapping_sub(y)),
            (o, Ofr::Const(0)) => o,
            (Ofr::Val(x), Ofr::Val(y)) if x == y => Ofr::Const(0),
            _ if let Some(r) = self.fold_values(a, b, i64::wrapping_sub) => r,
            _ => self.binary("arith.subi", a, b),
        }
    }

    pub fn mul(&mut self, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(x), Ofr::Const(y)) => Ofr::Const(x.wrapping_mul(y)),
            (Ofr::Const(0), _) | (_, Ofr::Const(0)) => Ofr::Const(0),
            (Ofr::Const(1), o) | (o, Ofr::Const(1)) => o,
            _ if let Some(r) = self.fold_values(a, b, i64::wrapping_mul) => r,
            _ => self.commutative("arith.muli", a, b),
        }
    }

    pub fn min(&mut self, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(x), Ofr::Const(y)) => Ofr::Const(x.min(y)),
            _ if a == b => a,
            _ if let Some(r) = self.fold_values(a, b, i64::min) => r,
            _ => self.commutative("arith.minsi", a, b),
        }
    }

    pub fn max(&mut self, a: Ofr, b: Ofr) -> Ofr {
        match (a, b) {
            (Ofr::Const(x), Ofr::Const(y)) => Ofr::Const(x.max(y)),
            _ if a == b => a,
            _ if let Some(r) = self.fold_values(a, b, i64::max) => r,
            _ => self.commutative("arith.maxsi", a, b),
        }
    }

    /// `memref.reinterpret_cast` of `source` to a static-shaped view.
    pub fn reinterpret_cast(&mut self, source: Value, offset: Ofr, sizes: &[i64], strides: &[Ofr]) -> Value {
        let elem = element_of(self.ir, self.ir.value_type(source));
        let (st_strides, dyn_strides) = split(strides);
        let (st_offset, dyn_offset) = split(&[offset]);
        // MLIR's inferred result type: always a strided layout, identity or not.
        let layout = self.ir.attr(AttrData::Strided { strides: st_strides.clone(), offset: st_offset[0] });
        let t = self.ir.ty(TypeData::MemRef { shape: sizes.to_vec(), elem, layout: Some(layout), memory_space: None });
        let seg = hivm_dialects::util::segment_attr(self.ir, &[1, dyn_offset.len(), 0, dyn_strides.len()]);
        let a_off = hivm_dialects::util::i64_array_attr(self.ir, &st_offset);
        let a_sizes = hivm_dialects::util::i64_array_attr(self.ir, sizes);
        let a_strides = hivm_dialects::util::i64_array_attr(self.ir, &st_strides);
        let mut operands = vec![source];
        operands.extend(dyn_offset);
        operands.extend(dyn_strides);
        self.value1(
            "memref.reinterpret_cast",
            &operands,
            t,
            vec![
                ("operandSegmentSizes", seg),
                ("static_offsets", a_off),
                ("static_sizes", a_sizes),
                ("static_strides", a_strides),
            ],
        )
    }

    /// A unit-stride `memref.subview` (MLIR's inferred strided result type).
    pub fn subview(&mut self, source: Value, offsets: &[Ofr], sizes: &[Ofr]) -> Value {
        let st = self.ir.value_type(source);
        let elem = element_of(self.ir, st);
        let (src_strides, src_offset) =
            hivm_dialects::util::strides_and_offset(self.ir, st).expect("a strided source memref");
        let (st_offsets, dyn_offsets) = split(offsets);
        let (st_sizes, dyn_sizes) = split(sizes);
        let mut offset = src_offset;
        for (o, s) in st_offsets.iter().zip(&src_strides) {
            offset = if offset == DYNAMIC || *o == DYNAMIC || *s == DYNAMIC { DYNAMIC } else { offset + o * s };
        }
        let t = strided_memref(self.ir, &st_sizes, elem, &src_strides, offset);
        let t = if matches!(self.ir.type_data(t), TypeData::MemRef { layout: None, .. }) {
            // A subview always carries a strided layout.
            let layout = self.ir.attr(AttrData::Strided { strides: src_strides.clone(), offset });
            self.ir.ty(TypeData::MemRef { shape: st_sizes.clone(), elem, layout: Some(layout), memory_space: None })
        } else {
            t
        };
        self.slice_op("memref.subview", source, t, &st_offsets, dyn_offsets, &st_sizes, dyn_sizes)
    }

    /// A unit-stride `tensor.extract_slice`.
    pub fn extract_slice(&mut self, source: Value, offsets: &[Ofr], sizes: &[Ofr]) -> Value {
        let elem = element_of(self.ir, self.ir.value_type(source));
        let (st_offsets, dyn_offsets) = split(offsets);
        let (st_sizes, dyn_sizes) = split(sizes);
        let t = tensor_type(self.ir, &st_sizes, elem);
        self.slice_op("tensor.extract_slice", source, t, &st_offsets, dyn_offsets, &st_sizes, dyn_sizes)
    }

    #[allow(clippy::too_many_arguments)]
    fn slice_op(
        &mut self,
        name: &str,
        source: Value,
        t: Type,
        st_offsets: &[i64],
        dyn_offsets: Vec<Value>,
        st_sizes: &[i64],
        dyn_sizes: Vec<Value>,
    ) -> Value {
        let seg = hivm_dialects::util::segment_attr(self.ir, &[1, dyn_offsets.len(), dyn_sizes.len(), 0]);
        let ones = vec![1; st_sizes.len()];
        let a_off = hivm_dialects::util::i64_array_attr(self.ir, st_offsets);
        let a_sizes = hivm_dialects::util::i64_array_attr(self.ir, st_sizes);
        let a_strides = hivm_dialects::util::i64_array_attr(self.ir, &ones);
        let mut operands = vec![source];
        operands.extend(dyn_offsets);
        operands.extend(dyn_sizes);
        self.value1(
            name,
            &operands,
            t,
            vec![
                ("operandSegmentSizes", seg),
                ("static_offsets", a_off),
                ("static_sizes", a_sizes),
                ("static_strides", a_strides),
            ],
        )
    }

    pub fn alloc(&mut self, shape: &[i64], elem: Type) -> Value {
        let t = self.ir.ty(TypeData::MemRef { shape: shape.to_vec(), elem, layout: None, memory_space: None });
        let seg = hivm_dialects::util::segment_attr(self.ir, &[0, 0]);
        self.value1("memref.alloc", &[], t, vec![("operandSegmentSizes", seg)])
    }

    pub fn copy(&mut self, from: Value, to: Value) {
        self.op("memref.copy", &[from, to], &[], vec![]);
    }

    pub fn make_tensor(&mut self, buffer: Value) -> Value {
        let bt = self.ir.value_type(buffer);
        let shape = shape_of(self.ir, bt);
        let elem = element_of(self.ir, bt);
        let t = tensor_type(self.ir, &shape, elem);
        let unit = self.ir.unit_attr();
        self.value1("bufferization.to_tensor", &[buffer], t, vec![("restrict", unit), ("writable", unit)])
    }

    pub fn materialize(&mut self, value: Value, dest: Value) {
        let unit = self.ir.unit_attr();
        self.op("bufferization.materialize_in_destination", &[value, dest], &[], vec![("writable", unit)]);
    }

    pub fn empty(&mut self, shape: &[i64], elem: Type) -> Value {
        let t = tensor_type(self.ir, shape, elem);
        self.value1("tensor.empty", &[], t, vec![])
    }

    /// A detached region of one block with arguments of `types`; `body`
    /// fills it and returns the values `linalg.yield` gives back.
    pub fn region(&mut self, types: &[Type], body: impl FnOnce(&mut Emitter<'_>, &[Value]) -> Vec<Value>) -> RegionId {
        let region = self.ir.new_region();
        let block = self.ir.create_block();
        self.ir.push_block(region, block);
        let args: Vec<Value> = types.iter().map(|t| self.ir.add_block_arg(block, *t, None)).collect();
        let mut inner = Emitter::new(self.ir, InsertPoint::End(block), self.loc);
        let yields = body(&mut inner, &args);
        inner.op("linalg.yield", &yields, &[], vec![]);
        region
    }

    /// `linalg.fill` of `dest` (a tensor, giving a result, or a memref) with `value`.
    pub fn fill(&mut self, value: Value, dest: Value) -> Option<Value> {
        let dt = self.ir.value_type(dest);
        let elem = element_of(self.ir, dt);
        let vt = self.ir.value_type(value);
        let region = self.region(&[vt, elem], |_, args| vec![args[0]]);
        let seg = hivm_dialects::util::segment_attr(self.ir, &[1, 1]);
        let tensor = self.ir.type_data(dt).is_tensor();
        let results = if tensor { vec![dt] } else { vec![] };
        let op = self.op_with_regions(
            "linalg.fill",
            &[value, dest],
            &results,
            vec![("operandSegmentSizes", seg)],
            vec![region],
        );
        tensor.then(|| self.ir.result(op, 0))
    }

    /// `tensor.empty` filled with `value`.
    pub fn splat(&mut self, value: Value, shape: &[i64]) -> Value {
        let elem = self.ir.value_type(value);
        let e = self.empty(shape, elem);
        self.fill(value, e).expect("a tensor fill")
    }
}
