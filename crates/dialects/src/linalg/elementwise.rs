//! Rank-polymorphic elementwise named ops in the manner of linalg's OpDSL
//! (`linalg.elemwise_unary`, `hfusion.compare`, ...): `{attrs} ins(...)
//! outs(...) -> T`, identity indexing maps over the init's rank (scalars and
//! rank-0 operands broadcast), and a body the parser builds from the op's
//! function attribute. Each op supplies its body builder; the syntax, the
//! body's block and the structural checks are shared here.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::dialect::VerifyError;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Attribute, BlockId, Ir, OpDef, OpId, Sym, Traits, Type, TypeData, Value};

use super::structured::{body_block, cast_op, parse_ins_outs, print_ins_outs, print_results, yield_op};
use crate::util::{push_attr, segment, segment_attr, type_str};

/// An elementwise named op, declared once.
pub(crate) struct Named {
    pub name: &'static str,
    /// Inputs the body takes (the one init comes after them).
    pub inputs: usize,
    /// Attributes stored as properties (`DefaultValuedOptionalAttr`s: the
    /// parser adds none, the printer shows whatever is stored).
    pub attrs: &'static [&'static str],
    /// The dialect's memo attribute, never printed.
    pub memo: &'static str,
    /// Builds the payload from the body's arguments (inputs, then the init)
    /// and returns the yielded value; `Err` is the diagnostic.
    pub body: fn(&mut Body<'_>, &[Value]) -> Result<Value, String>,
}

impl Named {
    pub fn def(&'static self) -> OpDef {
        let mut inherent = self.attrs.to_vec();
        inherent.push("operandSegmentSizes");
        OpDef::new(self.name)
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(Box::leak(inherent.into_boxed_slice()))
            .assembly(parse, print)
            .verifier(verify)
    }
}

/// Every op of this kind, for the parser and printer to find their entry.
pub(crate) fn lookup(name: &str) -> Option<&'static Named> {
    super::ELEMENTWISE.iter().chain(crate::hfusion::NAMED).copied().chain(NAMED_22).find(|n| n.name == name)
}

/// Where a body builder appends its ops, and the attributes it reads.
pub(crate) struct Body<'a> {
    pub ir: &'a mut Ir,
    /// The op being built (one body builder may serve several ops).
    pub name: &'a str,
    block: BlockId,
    loc: Attribute,
    attrs: &'a [(Sym, Attribute)],
}

impl<'a> Body<'a> {
    /// A builder appending to `block` (all ops at `loc`) for the op `name`
    /// written with `attrs`.
    pub fn new(
        ir: &'a mut Ir,
        name: &'a str,
        block: BlockId,
        loc: Attribute,
        attrs: &'a [(Sym, Attribute)],
    ) -> Body<'a> {
        Body { ir, name, block, loc, attrs }
    }

    /// Appends `name` and returns its one result.
    pub fn op(&mut self, name: &str, operands: &[Value], ty: Type, attrs: Vec<(&str, Attribute)>) -> Value {
        let mut b = Builder::new(self.ir, InsertPoint::End(self.block));
        let op = b.op(name, operands, &[ty], attrs, self.loc);
        self.ir.result(op, 0)
    }

    /// The op's attribute `key`, if written.
    pub fn attr(&self, key: &str) -> Option<Attribute> {
        self.attrs.iter().find(|(k, _)| self.ir.sym_str(*k) == key).map(|(_, a)| *a)
    }

    /// The value of the enum attribute `key` (`#dialect.mnemonic<value>`),
    /// or `default` when absent.
    pub fn enum_value(&self, key: &str, mnemonic: &str, default: &str) -> String {
        self.attr(key).and_then(|a| crate::util::opaque_arg(self.ir, a, mnemonic)).unwrap_or(default).to_string()
    }

    /// Whether the op's `cast` function asks for unsigned conversions.
    pub fn unsigned_cast(&self) -> bool {
        self.attr("cast").and_then(|a| crate::util::opaque_arg(self.ir, a, "type_fn")) == Some("cast_unsigned")
    }

    pub fn bool_attr(&self, key: &str, default: bool) -> bool {
        match self.attr(key).map(|a| self.ir.attr_data(a)) {
            Some(hivm_ir::AttrData::Integer { value, .. }) => *value != 0,
            _ => default,
        }
    }

    /// `arith.constant` of `text` (a decimal literal) in the scalar type `ty`.
    pub fn constant(&mut self, text: &str, ty: Type) -> Result<Value, String> {
        let value = match *self.ir.type_data(ty) {
            TypeData::Float(k) => {
                let (neg, body) = text.strip_prefix('-').map_or((false, text), |b| (true, b));
                let bits = hivm_ir::parser::float_bits(k, body, neg).ok_or("constant not representable")?;
                self.ir.attr(hivm_ir::AttrData::Float { bits, ty })
            }
            _ => {
                let v: i128 = text.parse().map_err(|_| "integer constant expected")?;
                self.ir.int_attr(v, ty)
            }
        };
        Ok(self.op("arith.constant", &[], ty, vec![("value", value)]))
    }

    /// `v` converted to `to` (MLIR's `convertScalarToDtype`); `v` itself
    /// when the types agree.
    pub fn cast(&mut self, v: Value, to: Type, unsigned: bool) -> Value {
        self.cast_op(v, to, unsigned).map_or(v, |op| self.ir.result(op, 0))
    }

    /// The conversion op, if one is needed.
    pub fn cast_op(&mut self, v: Value, to: Type, unsigned: bool) -> Option<OpId> {
        let name = cast_op(self.ir, self.ir.value_type(v), to, unsigned)?;
        let r = self.op(name, &[v], to, Vec::new());
        self.ir.defining_op(r)
    }

    pub fn is_float(&self, v: Value) -> bool {
        matches!(self.ir.type_data(self.ir.value_type(v)), TypeData::Float(_))
    }

    pub fn is_int(&self, v: Value) -> bool {
        matches!(self.ir.type_data(self.ir.value_type(v)), TypeData::Integer { .. } | TypeData::Index)
    }
}

/// Builds the elementwise named op `name` (linalg's or hfusion's) at `ip`
/// with the body its parser would give it (built at an unknown location,
/// as MLIR's region builders do); `attrs` become its properties. Results
/// are the tensor inits' types. `Err` is the body builder's diagnostic.
pub fn build(
    ir: &mut Ir,
    ip: InsertPoint,
    name: &str,
    ins: &[Value],
    outs: &[Value],
    attrs: Vec<(&str, Attribute)>,
    loc: Attribute,
) -> Result<OpId, String> {
    let spec = lookup(name).ok_or_else(|| format!("'{name}' is not an elementwise named op"))?;
    if ins.len() + outs.len() != spec.inputs + 1 {
        return Err(format!("'{name}' expects {} operands, got {}", spec.inputs + 1, ins.len() + outs.len()));
    }
    let all: Vec<Value> = ins.iter().chain(outs).copied().collect();
    let attrs: Vec<(Sym, Attribute)> = attrs.into_iter().map(|(k, v)| (ir.sym(k), v)).collect();
    let unknown = ir.unknown_loc();
    let (region, block, args) = body_block(ir, &all, unknown);
    let value = {
        let mut b = Body { ir, name, block, loc: unknown, attrs: &attrs };
        (spec.body)(&mut b, &args)?
    };
    yield_op(ir, block, vec![value], unknown);
    let mut props = attrs;
    props.push((ir.sym("operandSegmentSizes"), segment_attr(ir, &[ins.len(), outs.len()])));
    let mut st = hivm_ir::OperationState::new(ir.sym(name), loc);
    st.operands = all;
    st.result_types = outs.iter().map(|v| ir.value_type(*v)).filter(|t| ir.type_data(*t).is_tensor()).collect();
    st.regions = vec![region];
    st.properties = Some(ir.dict_attr(props));
    Ok(Builder::new(ir, ip).create(st))
}

fn parse(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    let Some(spec) = lookup(&name) else { return p.error(format!("custom op '{name}' is unknown")) };
    // Body errors are reported where the op's custom syntax starts, as
    // MLIR's region builders report them.
    let start = p.pos();
    let (ins, outs) = parse_ins_outs(p, r)?;
    if p.consume_if(hivm_ir::lexer::Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let expected = spec.inputs + 1;
    if ins.len() + outs.len() != expected {
        return p.error(format!(
            "custom op '{name}' [parseNamedStructuredOpRegion] ods-gen generated region expects {expected} args, got {}",
            ins.len() + outs.len()
        ));
    }
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    // MLIR builds these bodies with unknown locations throughout.
    let loc = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, loc);
    let attrs = std::mem::take(&mut r.attrs);
    let built = {
        let mut b = Body { ir: p.ir, name: &name, block, loc, attrs: &attrs };
        (spec.body)(&mut b, &args)
    };
    r.attrs = attrs;
    let value = match built {
        Ok(v) => v,
        Err(e) => return p.error_at(start, format!("custom op '{name}' {e}")),
    };
    yield_op(p.ir, block, vec![value], loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = all;
    Ok(())
}

fn print(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let memo = lookup(ir.op_name(op)).map_or("", |s| s.memo);
    p.print_optional_attr_dict(op, &["operandSegmentSizes", memo]);
    print_ins_outs(p, segment(ir, op, 0), segment(ir, op, 1));
    print_results(p, op);
}

/// The destination-style checks and those of the identity indexing maps
/// (rank-0 and scalar operands map to no loop).
fn verify(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 2)?;
    let n_ins = segment(ir, op, 0).len();
    crate::hivm::ops::verify_dps(ir, op, n_ins..ir.operands(op).len())?;
    let Some(&init) = segment(ir, op, 1).first() else { return Ok(()) };
    let rank = ir.type_data(ir.value_type(init)).shape().map_or(0, |s| s.len());
    // Loop sizes come from the first operand giving each dimension statically.
    let mut loops: Vec<Option<i64>> = vec![None; rank];
    let shapes: Vec<Option<Vec<i64>>> =
        ir.operands(op).iter().map(|v| ir.type_data(ir.value_type(*v)).shape().map(|s| s.to_vec())).collect();
    for (i, shape) in shapes.iter().enumerate() {
        let Some(shape) = shape.as_ref().filter(|s| !s.is_empty()) else { continue };
        if shape.len() != rank {
            return Err(format!(
                "expected operand rank ({}) to match the result rank of indexing_map #{i} ({rank})",
                shape.len()
            )
            .into());
        }
        for (d, &size) in shape.iter().enumerate() {
            if size >= 0 && loops[d].is_none() {
                loops[d] = Some(size);
            }
        }
    }
    for (i, shape) in shapes.iter().enumerate() {
        for (d, &size) in shape.iter().flatten().enumerate() {
            if let Some(want) = loops[d].filter(|w| size >= 0 && size != *w) {
                return Err(format!(
                    "inferred input/output operand #{i} has shape's dimension #{d} to be {want}, but found {size}"
                )
                .into());
            }
        }
    }
    // The body's arguments: each operand's element type (or the scalar).
    if let Some(b) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()) {
        for (i, (a, v)) in ir.block_args(*b).iter().zip(ir.operands(op)).enumerate() {
            let want = crate::util::body_element(ir, ir.value_type(*v));
            if ir.value_type(*a) != want {
                return Err(format!(
                    "expected type of bb argument #{i} ({}) to match element or self type of the corresponding operand ({})",
                    type_str(ir, ir.value_type(*a)),
                    type_str(ir, want)
                )
                .into());
            }
        }
    }
    Ok(())
}

// ----- linalg.elemwise_unary / elemwise_binary (in upstream's LLVM 19) -----

pub(crate) static ELEMWISE_UNARY: Named = Named {
    name: "linalg.elemwise_unary",
    inputs: 1,
    attrs: &["fun", "cast"],
    memo: "linalg.memoized_indexing_maps",
    body: linalg_unary,
};

pub(crate) static ELEMWISE_BINARY: Named = Named {
    name: "linalg.elemwise_binary",
    inputs: 2,
    attrs: &["fun", "cast"],
    memo: "linalg.memoized_indexing_maps",
    body: linalg_binary,
};

// ----- MLIR 22's elementwise named ops (no function attribute, no casts
// but `copy`'s) -----

const fn named22(
    name: &'static str,
    inputs: usize,
    body: fn(&mut Body<'_>, &[Value]) -> Result<Value, String>,
) -> Named {
    Named { name, inputs, attrs: &["cast"], memo: "linalg.memoized_indexing_maps", body }
}

pub(crate) static NAMED_22: &[Named] = &[
    named22("linalg.add", 2, binary22),
    named22("linalg.sub", 2, binary22),
    named22("linalg.mul", 2, binary22),
    named22("linalg.div", 2, binary22),
    named22("linalg.div_unsigned", 2, binary22),
    named22("linalg.max", 2, binary22),
    named22("linalg.min", 2, binary22),
    named22("linalg.powf", 2, binary22),
    named22("linalg.exp", 1, unary22),
    named22("linalg.log", 1, unary22),
    named22("linalg.abs", 1, unary22),
    named22("linalg.ceil", 1, unary22),
    named22("linalg.floor", 1, unary22),
    named22("linalg.negf", 1, unary22),
    named22("linalg.reciprocal", 1, unary22),
    named22("linalg.round", 1, unary22),
    named22("linalg.sqrt", 1, unary22),
    named22("linalg.rsqrt", 1, unary22),
    named22("linalg.square", 1, unary22),
    named22("linalg.tanh", 1, unary22),
    named22("linalg.erf", 1, unary22),
    named22("linalg.copy", 1, copy22),
    named22("linalg.select", 3, select22),
];

fn short_name<'a>(b: &Body<'a>) -> &'a str {
    b.name.strip_prefix("linalg.").unwrap_or(b.name)
}

fn binary22(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let fun = match short_name(b) {
        "max" => "max_signed",
        "min" => "min_signed",
        f => f,
    };
    binary_fn(b, fun, args[0], args[1])
}

/// linalg's `BinaryFn` applied to two body scalars, as MLIR's region
/// builder applies it (the result has `l`'s type); `Err` is its diagnostic.
pub(crate) fn binary_fn(b: &mut Body<'_>, fun: &str, l: Value, r: Value) -> Result<Value, String> {
    let (lt, rt) = (b.ir.value_type(l), b.ir.value_type(r));
    let width = |t: Type| match b.ir.type_data(t) {
        TypeData::Integer { width, .. } => Some(*width),
        _ => None,
    };
    let all_float = b.is_float(l) && b.is_float(r);
    let all_int = width(lt).is_some() && width(rt).is_some();
    let all_bool = width(lt) == Some(1) && width(rt) == Some(1);
    if !all_float && !all_int {
        return Err(format!(
            "Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got '{}' and '{}'",
            type_str(b.ir, lt),
            type_str(b.ir, rt)
        ));
    }
    let name = match (fun, all_float) {
        ("add", true) => "arith.addf",
        ("add", false) if all_bool => "arith.ori",
        ("add", false) => "arith.addi",
        ("sub", true) => "arith.subf",
        ("sub", false) if all_bool => return Err("unsupported operation: sub with bools".into()),
        ("sub", false) => "arith.subi",
        ("mul", true) => "arith.mulf",
        ("mul", false) if all_bool => "arith.andi",
        ("mul", false) => "arith.muli",
        ("div", true) => "arith.divf",
        ("div", false) if all_bool => return Err("unsupported operation: div with bools".into()),
        ("div", false) => "arith.divsi",
        ("div_unsigned", false) if !all_bool => "arith.divui",
        ("div_unsigned", _) => return Err("unsupported operation: unsigned div not on uint".into()),
        ("max_signed" | "max_unsigned", true) => "arith.maximumf",
        ("min_signed" | "min_unsigned", true) => "arith.minimumf",
        ("max_signed", false) => "arith.maxsi",
        ("min_signed", false) => "arith.minsi",
        ("max_unsigned", false) => "arith.maxui",
        ("min_unsigned", false) => "arith.minui",
        ("powf", true) => "math.powf",
        (f, _) => return Err(format!("unsupported operation: {f} on {}", type_str(b.ir, lt))),
    };
    Ok(b.op(name, &[l, r], lt, Vec::new()))
}

fn unary22(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let x = args[0];
    let t = b.ir.value_type(x);
    if !b.is_float(x) {
        return Err("unsupported non numeric type".into());
    }
    Ok(match short_name(b) {
        "abs" => b.op("math.absf", &[x], t, Vec::new()),
        "negf" => b.op("arith.negf", &[x], t, Vec::new()),
        "square" => b.op("arith.mulf", &[x, x], t, Vec::new()),
        "reciprocal" => {
            let one = b.constant("1.0", t)?;
            b.op("arith.divf", &[one, x], t, Vec::new())
        }
        f => b.op(&format!("math.{f}"), &[x], t, Vec::new()),
    })
}

fn copy22(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[1]);
    let unsigned = b.unsigned_cast();
    Ok(b.cast(args[0], out, unsigned))
}

fn select22(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let t = b.ir.value_type(args[1]);
    Ok(b.op("arith.select", &[args[0], args[1], args[2]], t, Vec::new()))
}

fn linalg_unary(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[1]);
    let unsigned = b.unsigned_cast();
    let x = b.cast(args[0], out, unsigned);
    let fun = b.enum_value("fun", "unary_fn", "exp");
    if !b.is_float(x) {
        return Err(format!("unsupported non-float type for unary function {fun}"));
    }
    Ok(match fun.as_str() {
        "abs" => b.op("math.absf", &[x], out, Vec::new()),
        "negf" => b.op("arith.negf", &[x], out, Vec::new()),
        "reciprocal" => {
            let one = b.constant("1.0", out)?;
            b.op("arith.divf", &[one, x], out, Vec::new())
        }
        "square" => b.op("arith.mulf", &[x, x], out, Vec::new()),
        f @ ("exp" | "log" | "ceil" | "floor" | "round" | "sqrt" | "rsqrt" | "tanh" | "erf") => {
            b.op(&format!("math.{f}"), &[x], out, Vec::new())
        }
        f => return Err(format!("unsupported unary function {f}")),
    })
}

fn linalg_binary(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[2]);
    let unsigned = b.unsigned_cast();
    let (l, r) = (b.cast(args[0], out, unsigned), b.cast(args[1], out, unsigned));
    let fun = b.enum_value("fun", "binary_fn", "add");
    let float = b.is_float(l);
    let bool_ty = b.ir.type_data(out).is_signless_int(1);
    let name = match (fun.as_str(), float) {
        ("add", true) => "arith.addf",
        ("add", false) if bool_ty => "arith.ori",
        ("add", false) => "arith.addi",
        ("sub", true) => "arith.subf",
        ("sub", false) if !bool_ty => "arith.subi",
        ("mul", true) => "arith.mulf",
        ("mul", false) if bool_ty => "arith.andi",
        ("mul", false) => "arith.muli",
        ("div", true) => "arith.divf",
        ("div", false) if !bool_ty => "arith.divsi",
        ("div_unsigned", false) if !bool_ty => "arith.divui",
        ("max_signed" | "max_unsigned", true) => "arith.maximumf",
        ("min_signed" | "min_unsigned", true) => "arith.minimumf",
        ("max_signed", false) => "arith.maxsi",
        ("min_signed", false) => "arith.minsi",
        ("max_unsigned", false) => "arith.maxui",
        ("min_unsigned", false) => "arith.minui",
        ("powf", true) => "math.powf",
        (f, _) => return Err(format!("unsupported binary function {f} on {}", type_str(b.ir, out))),
    };
    Ok(b.op(name, &[l, r], out, Vec::new()))
}
