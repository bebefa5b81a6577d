//! In upstream's default `core_op` matmul mode, `linalg.matmul` and its
//! transposed forms become the global `hivm.hir.matmul` (`a_transpose` /
//! `b_transpose` for the transposed operand). Matmuls whose result carries
//! tiling, workspace or post-vector annotations, or feeds a call (upstream
//! then builds a mixed matmul), and the `macro_instr` mode Triton kernels
//! use (local L1 matmuls) are not converted yet.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId};

use super::{Cx, build, replace_with, result_types};

/// Whether a result of `op` is read by an annotation or a call.
fn annotated_or_called(ir: &Ir, op: OpId) -> bool {
    let results = ir.results(op);
    let scope = ir.parent_op(op).unwrap_or(op);
    let mut found = false;
    ir.walk(scope, &mut |o| {
        found |= (ir.is_op(o, "annotation.mark") || ir.is_op(o, "func.call"))
            && ir.operands(o).iter().any(|v| results.contains(v));
    });
    found
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str, macro_mode: bool) -> Result<Option<bool>, Diagnostic> {
    let transpose = match name {
        "linalg.matmul" => None,
        "linalg.matmul_transpose_a" => Some("aTranspose"),
        "linalg.matmul_transpose_b" => Some("bTranspose"),
        _ => return Ok(None),
    };
    let ir = &mut *cx.ir;
    let operands = ir.operands(op).to_vec();
    let &[a, b, c] = operands.as_slice() else { return Ok(Some(false)) };
    if macro_mode || annotated_or_called(ir, op) {
        return Ok(Some(false));
    }
    let results = result_types(ir, op);
    let attrs = transpose.map(|k| vec![(k, ir.unit_attr())]).unwrap_or_default();
    let groups: [&[hivm_ir::Value]; 11] = [&[a], &[b], &[], &[], &[], &[], &[], &[], &[], &[], &[c]];
    let new = build(ir, op, "hivm.hir.matmul", &groups, &results, attrs);
    replace_with(cx, op, new);
    Ok(Some(true))
}
