//! Register-based targets only: triton-ascend's calls that read or write
//! global memory directly by computed addresses (`triton_indirect_load`,
//! `triton_indirect_store`, `triton_stride_load`, `triton_stride_store`,
//! `triton_embedding_gather`, `triton__gather_out_to_ub`, `triton_index_put`,
//! `triton_scatter_ub_to_out`) become their hfusion ops, and the kernel's
//! `DirectlyUsedGMArgIdxList` records the argument each one addresses.
//! Operands are split by the rank of the index/value tensor as upstream does;
//! a call of another arity stays a call.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Attribute, Ir, OpId, Type, TypeData, Value};

use crate::func_args;
use crate::hivm::enclosing;
use hivm_dialects::util::constant_int;

pub(super) fn rewrite(ir: &mut Ir, call: OpId, callee: &str) -> Result<bool, Diagnostic> {
    let ops = ir.operands(call).to_vec();
    let cx = Call { call, loc: ir.loc(call) };
    match callee {
        c if c.starts_with("triton_indirect_load") => cx.indirect_load(ir, &ops),
        c if c.starts_with("triton_stride_load") => cx.stride_load(ir, &ops),
        c if c.starts_with("triton_stride_store") => cx.stride_store(ir, &ops),
        c if c.starts_with("triton_indirect_store") => cx.indirect_store(ir, &ops),
        c if c.starts_with("triton__gather_out_to_ub") => cx.gather_t(ir, &ops),
        c if c.starts_with("triton_index_put") => cx.scatter_like(ir, &ops, "hfusion.index_put"),
        c if c.starts_with("triton_scatter_ub_to_out") => cx.scatter_like(ir, &ops, "hfusion.scatterT"),
        c if c.starts_with("triton_embedding_gather") => cx.embedding_gather(ir, &ops),
        _ => Ok(false),
    }
}

struct Call {
    call: OpId,
    loc: Attribute,
}

fn rank(ir: &Ir, v: Value) -> Option<usize> {
    match ir.type_data(ir.value_type(v)) {
        TypeData::RankedTensor { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

fn shape(ir: &Ir, v: Value) -> Vec<i64> {
    ir.type_data(ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default()
}

impl Call {
    fn at(&self) -> InsertPoint {
        InsertPoint::Before(self.call)
    }

    /// Builds `name` from operand groups, with `operandSegmentSizes` when the
    /// op declares it.
    fn build(
        &self,
        ir: &mut Ir,
        name: &str,
        groups: &[&[Value]],
        results: &[Type],
        attrs: Vec<(&str, Attribute)>,
    ) -> OpId {
        let operands: Vec<Value> = groups.iter().flat_map(|g| g.iter().copied()).collect();
        let mut attrs = attrs;
        let sym = ir.sym(name);
        let segmented =
            ir.lookup_def(sym).is_some_and(|d| ir.registry.def(d).inherent_attrs.contains(&"operandSegmentSizes"));
        if segmented {
            let sizes: Vec<usize> = groups.iter().map(|g| g.len()).collect();
            attrs.push(("operandSegmentSizes", hivm_dialects::util::segment_attr(ir, &sizes)));
        }
        Builder::new(ir, self.at()).op(name, &operands, results, attrs, self.loc)
    }

    fn value(&self, ir: &mut Ir, name: &str, operands: &[Value], t: Type) -> Value {
        let o = Builder::new(ir, self.at()).op(name, operands, &[t], vec![], self.loc);
        ir.result(o, 0)
    }

    fn empty_like_result(&self, ir: &mut Ir) -> Option<(Value, Type)> {
        let [r] = ir.results(self.call) else { return None };
        let t = ir.value_type(*r);
        ir.type_data(t).is_tensor().then(|| (self.value(ir, "tensor.empty", &[], t), t))
    }

    fn splat(&self, ir: &mut Ir, scalar: Value, shape: Vec<i64>) -> Value {
        let elem = ir.value_type(scalar);
        let t = ir.ty(TypeData::RankedTensor { shape, elem, encoding: None });
        self.value(ir, "tensor.splat", &[scalar], t)
    }

    fn zero(&self, ir: &mut Ir, elem: Type) -> Value {
        // All-zero bits are 0.0 in every float format.
        let a = if matches!(ir.type_data(elem), TypeData::Float(_)) {
            ir.attr(hivm_ir::AttrData::Float { bits: 0, ty: elem })
        } else {
            ir.int_attr(0, elem)
        };
        let c = Builder::new(ir, self.at()).op("arith.constant", &[], &[elem], vec![("value", a)], self.loc);
        ir.result(c, 0)
    }

    /// A mask of i1 widened to i8, as the hfusion ops take it.
    fn mask_i8(&self, ir: &mut Ir, mask: Value) -> Value {
        match ir.type_data(ir.value_type(mask)).clone() {
            TypeData::RankedTensor { shape, elem, .. } if ir.type_data(elem).int_width() == Some(1) => {
                let i8 = ir.int_type(8);
                let t = ir.ty(TypeData::RankedTensor { shape, elem: i8, encoding: None });
                self.value(ir, "arith.extui", &[mask], t)
            }
            _ => mask,
        }
    }

    /// Appends the function argument `gm` is to the kernel's
    /// `DirectlyUsedGMArgIdxList`.
    fn record_gm_arg(&self, ir: &mut Ir, gm: Value) -> Result<(), Diagnostic> {
        let f = enclosing(ir, self.call, "func.func").expect("a call inside a function");
        let Some(idx) = func_args::argument_index(ir, f, gm) else {
            return Err(Diagnostic::error(
                self.loc,
                "expected the global-memory operand of the library call to be an argument of the kernel",
            ));
        };
        let mut list: Vec<Attribute> = ir
            .get_attr(f, "DirectlyUsedGMArgIdxList")
            .and_then(|a| ir.as_array(a))
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let i64t = ir.int_type(64);
        list.push(ir.int_attr(idx as i128, i64t));
        let a = ir.array_attr(list);
        ir.set_attr(f, "DirectlyUsedGMArgIdxList", a);
        Ok(())
    }

    fn finish(&self, ir: &mut Ir, new: OpId) -> Result<bool, Diagnostic> {
        let results = ir.results(new).to_vec();
        ir.replace_op(self.call, &results);
        Ok(true)
    }

    fn indirect_load(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        let (Some(&src), Some(&offsets)) = (ops.first(), ops.get(1)) else { return Ok(false) };
        let Some(_) = rank(ir, offsets) else { return Ok(false) };
        let Some((init, t)) = self.empty_like_result(ir) else { return Ok(false) };
        let mask = match ops.get(2) {
            Some(m) => self.mask_i8(ir, *m),
            None => {
                let i8 = ir.int_type(8);
                let one = ir.int_attr(1, i8);
                let c = Builder::new(ir, self.at()).op("arith.constant", &[], &[i8], vec![("value", one)], self.loc);
                let c = ir.result(c, 0);
                self.splat(ir, c, shape(ir, offsets))
            }
        };
        let other = match ops.get(3) {
            Some(o) => *o,
            None => {
                let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(src));
                let z = self.zero(ir, elem);
                self.splat(ir, z, shape(ir, offsets))
            }
        };
        self.record_gm_arg(ir, src)?;
        let volatile = ir.get_attr(self.call, "isVolatile").and_then(|a| ir.as_int(a)).is_none_or(|v| v != 0);
        let v = ir.bool_attr(volatile);
        let op = self.build(
            ir,
            "hfusion.indirect_load",
            &[&[src], &[offsets], &[init], &[mask], &[other]],
            &[t],
            vec![("isVolatile", v)],
        );
        self.finish(ir, op)
    }

    fn stride_load(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        let [r] = ir.results(self.call) else { return Ok(false) };
        let Some(rank) = rank(ir, *r) else { return Ok(false) };
        if ops.len() != 3 + 2 * rank {
            return Ok(false);
        }
        let Some((init, t)) = self.empty_like_result(ir) else { return Ok(false) };
        self.record_gm_arg(ir, ops[0])?;
        let groups: [&[Value]; 6] = [&ops[0..1], &[init], &ops[1..2], &ops[2..3], &ops[3..3 + rank], &ops[3 + rank..]];
        let op = self.build(ir, "hfusion.stride_load", &groups, &[t], vec![]);
        self.finish(ir, op)
    }

    fn stride_store(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        if !ir.results(self.call).is_empty() || ops.len() < 5 {
            return Ok(false);
        }
        let Some(rank) = rank(ir, ops[1]) else { return Ok(false) };
        if ops.len() != 3 + 2 * rank {
            return Ok(false);
        }
        self.record_gm_arg(ir, ops[0])?;
        let groups: [&[Value]; 5] = [&ops[0..1], &ops[1..2], &ops[2..3], &ops[3..3 + rank], &ops[3 + rank..]];
        let op = self.build(ir, "hfusion.stride_store", &groups, &[], vec![]);
        self.finish(ir, op)
    }

    fn indirect_store(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        if ops.len() < 3 {
            return Ok(false);
        }
        let (dst, offsets, src) = (ops[0], ops[1], ops[2]);
        let mask: Vec<Value> = ops.get(3).map(|m| self.mask_i8(ir, *m)).into_iter().collect();
        self.record_gm_arg(ir, dst)?;
        let op = self.build(ir, "hfusion.indirect_store", &[&[dst], &[offsets], &[src], &mask], &[], vec![]);
        self.finish(ir, op)
    }

    fn gather_t(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        let Some(n) = ops.get(1).and_then(|i| rank(ir, *i)) else { return Ok(false) };
        if ops.len() < 4 + 3 * n {
            return Ok(false);
        }
        let [r] = ir.results(self.call) else { return Ok(false) };
        let t = ir.value_type(*r);
        let (src, index, bound, dim) = (ops[0], ops[1], ops[2], ops[3]);
        let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(src));
        let other = match ops.get(4 + 3 * n) {
            Some(o) => *o,
            None => self.zero(ir, elem),
        };
        self.record_gm_arg(ir, src)?;
        // The init is a filled local buffer seen as a tensor.
        let mt = ir.ty(TypeData::MemRef { shape: shape(ir, index), elem, layout: None, memory_space: None });
        let seg = hivm_dialects::util::segment_attr(ir, &[0, 0]);
        let alloc =
            Builder::new(ir, self.at()).op("memref.alloc", &[], &[mt], vec![("operandSegmentSizes", seg)], self.loc);
        let buf = ir.result(alloc, 0);
        hivm_dialects::linalg::build_fill(ir, self.at(), other, buf, self.loc);
        let tt = ir.ty(TypeData::RankedTensor { shape: shape(ir, index), elem, encoding: None });
        let unit = ir.unit_attr();
        let tensor = Builder::new(ir, self.at()).op(
            "bufferization.to_tensor",
            &[buf],
            &[tt],
            vec![("restrict", unit)],
            self.loc,
        );
        let init = ir.result(tensor, 0);
        let rest = &ops[4..4 + 3 * n];
        let groups: [&[Value]; 8] =
            [&[src], &[index], &[init], &[bound], &[dim], &rest[..n], &rest[n..2 * n], &rest[2 * n..]];
        let op = self.build(ir, "hfusion.gatherT", &groups, &[t], vec![]);
        self.finish(ir, op)
    }

    /// `triton_index_put` and `triton_scatter_ub_to_out`: five leading
    /// operands, then three groups of as many values as operand 2's rank.
    fn scatter_like(&self, ir: &mut Ir, ops: &[Value], name: &str) -> Result<bool, Diagnostic> {
        let Some(n) = ops.get(2).and_then(|v| rank(ir, *v)) else { return Ok(false) };
        if ops.len() < 5 + 3 * n {
            return Ok(false);
        }
        self.record_gm_arg(ir, ops[0])?;
        let rest = &ops[5..5 + 3 * n];
        let groups: [&[Value]; 8] =
            [&ops[0..1], &ops[1..2], &ops[2..3], &ops[3..4], &ops[4..5], &rest[..n], &rest[n..2 * n], &rest[2 * n..]];
        let op = self.build(ir, name, &groups, &[], vec![]);
        self.finish(ir, op)
    }

    fn embedding_gather(&self, ir: &mut Ir, ops: &[Value]) -> Result<bool, Diagnostic> {
        let Some(n) = ops.get(1).and_then(|v| rank(ir, *v)) else { return Ok(false) };
        if ops.len() < 4 + 2 * (n + 1) {
            return Ok(false);
        }
        let (src, idx, bound) = (ops[0], ops[1], ops[2]);
        let Some(block) = constant_int(ir, ops[3]) else {
            return Err(Diagnostic::error(self.loc, "expected the embedding gather's block size to be a constant"));
        };
        self.record_gm_arg(ir, src)?;
        let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(src));
        let mut s = shape(ir, idx);
        s.push(block);
        let t = ir.ty(TypeData::RankedTensor { shape: s, elem, encoding: None });
        let init = self.value(ir, "tensor.empty", &[], t);
        let offsets = &ops[4..4 + n + 1];
        let numels = &ops[4 + n + 1..4 + 2 * (n + 1)];
        let groups: [&[Value]; 6] = [&[src], &[idx], &[init], &[bound], offsets, numels];
        let op = self.build(ir, "hfusion.embedding_gather", &groups, &[t], vec![]);
        self.finish(ir, op)
    }
}
