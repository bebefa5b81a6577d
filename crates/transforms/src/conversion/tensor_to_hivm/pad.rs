//! `tensor.pad` with a constant padding value -> `hivm.hir.vpad` into a
//! `tensor.empty` of size source + low + high per dimension (folded as
//! MLIR folds it); a `tensor.cast` restores the result type when that size
//! is less static than the pad's.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::{Ir, OpId, Value};

use super::Cx;
use super::sizes::{Size, empty, mixed_sizes, of_value, sum};
use crate::conversion::to_hfusion::replace;

/// The padding value when the body yields one defined outside it.
fn constant_padding(ir: &Ir, op: OpId) -> Option<Value> {
    let region = *ir.regions(op).first()?;
    let block = *ir.region_blocks(region).first()?;
    let yield_op = ir.block_ops(block).last()?;
    let v = *ir.operands(yield_op).first()?;
    match ir.defining_op(v) {
        Some(d) if ir.parent_block(d) == Some(block) => None,
        None if ir.block_args(block).contains(&v) => None,
        _ => Some(v),
    }
}

/// The pad's low or high amounts: its static list with its dynamic values
/// in place of the dynamic entries.
fn amounts(ir: &Ir, statics: &[i64], dynamics: &[Value]) -> Vec<Size> {
    let mut dynamics = dynamics.iter();
    statics
        .iter()
        .map(|n| match *n {
            hivm_ir::types::DYNAMIC => dynamics.next().map_or(Size::Static(0), |v| of_value(ir, *v)),
            n => Size::Static(n),
        })
        .collect()
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId) -> bool {
    let ir = &mut *cx.ir;
    let Some(pad_value) = constant_padding(ir, op) else { return false };
    let src = ir.operand(op, 0);
    let (low_dyn, high_dyn) =
        (hivm_dialects::util::segment(ir, op, 1).to_vec(), hivm_dialects::util::segment(ir, op, 2).to_vec());
    let (static_low, static_high) =
        (hivm_dialects::util::i64_array(ir, op, "static_low"), hivm_dialects::util::i64_array(ir, op, "static_high"));
    let (low, high) = (amounts(ir, &static_low, &low_dyn), amounts(ir, &static_high, &high_dyn));
    let source = mixed_sizes(ir, op, src);
    if source.len() != low.len() || source.len() != high.len() {
        return false;
    }
    let sizes: Vec<Size> = (0..source.len()).map(|i| sum(ir, op, &[source[i], low[i], high[i]])).collect();
    let result = ir.results(op)[0];
    let rt = ir.value_type(result);
    let elem = hivm_dialects::util::element_or_self(ir, rt);
    let dst = empty(ir, op, &sizes, elem);
    let dt = ir.value_type(dst);
    let lo = hivm_dialects::util::i64_array_attr(ir, &static_low);
    let hi = hivm_dialects::util::i64_array_attr(ir, &static_high);
    let seg = hivm_dialects::util::segment_attr(ir, &[1, 1, 1, low_dyn.len(), high_dyn.len()]);
    let loc = ir.loc(op);
    let mut operands = vec![src, dst, pad_value];
    operands.extend(&low_dyn);
    operands.extend(&high_dyn);
    let attrs = vec![("static_low", lo), ("static_high", hi), ("operandSegmentSizes", seg)];
    let new = Builder::new(ir, InsertPoint::Before(op)).op("hivm.hir.vpad", &operands, &[dt], attrs, loc);
    let mut out = ir.result(new, 0);
    if dt != rt {
        let c = Builder::new(ir, InsertPoint::Before(op)).op("tensor.cast", &[out], &[rt], vec![], loc);
        out = ir.result(c, 0);
    }
    replace(ir, op, &[out], cx.map);
    true
}
