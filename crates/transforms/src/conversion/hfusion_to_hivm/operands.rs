//! Upstream's `convertInvalidScalarOperands`: the hfusion ops take scalars
//! anywhere, the HIVM ops not always. A scalar where the new op wants a
//! vector is swapped with a vector input when the op commutes, else
//! broadcast (`vbrc`) into a fresh buffer shaped like the destination.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId, TypeData, Value};

use super::{Cx, build};

/// The HIVM ops with upstream's `CommutativeOpTrait`.
const COMMUTATIVE: &[&str] =
    &["hivm.hir.vadd", "hivm.hir.vmul", "hivm.hir.vmax", "hivm.hir.vmin", "hivm.hir.vor", "hivm.hir.vand"];

/// Upstream's `isScalarOperand`: an integer or float; on register-based
/// targets also an index or a rank-0 shaped value.
fn is_scalar(ir: &Ir, v: Value, regbase: bool) -> bool {
    match ir.type_data(ir.value_type(v)) {
        TypeData::Integer { .. } | TypeData::Float(_) => true,
        TypeData::Index => regbase,
        t => regbase && t.shape().is_some_and(|s| s.is_empty()),
    }
}

fn int_or_float(ir: &Ir, v: Value) -> bool {
    matches!(ir.type_data(ir.value_type(v)), TypeData::Integer { .. } | TypeData::Float(_))
}

/// The scalar operands of `op` (all but its last, the destination) that
/// must be vectors. `vsub` and `vdiv` take scalars anywhere but the first.
fn invalid_scalars(ir: &Ir, op: OpId, regbase: bool) -> Vec<usize> {
    let name = ir.op_name(op);
    let operands = ir.operands(op);
    if matches!(name, "hivm.hir.vsub" | "hivm.hir.vdiv") {
        // Upstream tests the first input twice; so do we.
        return if operands.first().is_some_and(|v| int_or_float(ir, *v)) { vec![0] } else { Vec::new() };
    }
    let vector_only = hivm_dialects::hivm::vector::vector_only_operands(name);
    let n = operands.len().saturating_sub(1);
    (0..n).filter(|i| is_scalar(ir, operands[*i], regbase) && vector_only.contains(i)).collect()
}

/// Upstream's `tryConvertInvalidScalarOperandByCommutative`: each vector
/// input free to hold a scalar takes the last invalid one in exchange.
fn swap_commutative(ir: &mut Ir, op: OpId, inputs: usize, invalid: &mut Vec<usize>, regbase: bool) -> bool {
    if !COMMUTATIVE.contains(&ir.op_name(op)) {
        return false;
    }
    let vector_only = hivm_dialects::hivm::vector::vector_only_operands(ir.op_name(op));
    for idx in 0..inputs {
        if invalid.is_empty() {
            return true;
        }
        let operand = ir.operand(op, idx);
        if is_scalar(ir, operand, regbase) || vector_only.contains(&idx) {
            continue;
        }
        let Some(bad) = invalid.pop() else { break };
        let scalar = ir.operand(op, bad);
        ir.set_operand(op, bad, operand);
        ir.set_operand(op, idx, scalar);
    }
    invalid.is_empty()
}

pub(super) fn fix_scalars(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let mut invalid = invalid_scalars(cx.ir, op, cx.regbase);
    if invalid.is_empty() {
        return Ok(());
    }
    let inputs = hivm_dialects::util::segment(cx.ir, op, 0).len();
    if swap_commutative(cx.ir, op, inputs, &mut invalid, cx.regbase) {
        return Ok(());
    }
    let Some(&dst) = cx.ir.operands(op).last() else { return Ok(()) };
    for idx in invalid {
        let scalar = cx.ir.operand(op, idx);
        let v = broadcast_scalar(cx, op, scalar, dst)?;
        cx.ir.set_operand(op, idx, v);
    }
    Ok(())
}

/// `vbrc` of `scalar` into a new buffer shaped like `dst` with the scalar's
/// element type, before `at`; a rank-0 tensor is read with `tensor.extract`.
fn broadcast_scalar(cx: &mut Cx<'_>, at: OpId, scalar: Value, dst: Value) -> Result<Value, Diagnostic> {
    let ir = &mut *cx.ir;
    let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(scalar));
    let empty = empty_buffer_like(ir, at, dst, elem);
    let mut src = scalar;
    if ir.type_data(ir.value_type(scalar)).is_shaped() {
        let loc = ir.loc(at);
        let e = Builder::new(ir, InsertPoint::Before(at)).op("tensor.extract", &[scalar], &[elem], vec![], loc);
        src = ir.result(e, 0);
    }
    let et = ir.value_type(empty);
    let results = if ir.type_data(et).is_tensor() { vec![et] } else { Vec::new() };
    let brc = build(ir, at, "hivm.hir.vbrc", &[&[src], &[empty]], &results, Vec::new());
    Ok(if results.is_empty() { empty } else { ir.result(brc, 0) })
}

/// Upstream's `createEmptyOpWithTargetElemType`: a `tensor.empty`, or a
/// `memref.alloc` keeping the layout and memory space, shaped like `like`.
pub(super) fn empty_buffer_like(ir: &mut Ir, at: OpId, like: Value, elem: hivm_ir::Type) -> Value {
    let t = ir.value_type(like);
    let TypeData::MemRef { shape, layout, memory_space, .. } = ir.type_data(t).clone() else {
        return super::super::empty_like(ir, at, like, elem);
    };
    let loc = ir.loc(at);
    let index = ir.index_type();
    let mut sizes = Vec::new();
    for (d, n) in shape.iter().enumerate() {
        if *n == hivm_ir::types::DYNAMIC {
            let c = ir.int_attr(d as i128, index);
            let c =
                Builder::new(ir, InsertPoint::Before(at)).op("arith.constant", &[], &[index], vec![("value", c)], loc);
            let c = ir.result(c, 0);
            let dim = Builder::new(ir, InsertPoint::Before(at)).op("memref.dim", &[like, c], &[index], vec![], loc);
            sizes.push(ir.result(dim, 0));
        }
    }
    let ty = ir.ty(TypeData::MemRef { shape, elem, layout, memory_space });
    hivm_dialects::memref::build_alloc(ir, at, ty, &sizes, None)
}
