//! In upstream's default `core_op` matmul mode, `linalg.matmul` and its
//! transposed forms become the global `hivm.hir.matmul` (`a_transpose` /
//! `b_transpose` for the transposed operand). Matmuls whose result carries
//! tiling, workspace or post-vector annotations, or feeds a call (upstream
//! then builds a mixed matmul), and the `macro_instr` mode Triton kernels
//! use (local L1 matmuls) are not converted yet.
//!
//! On register-based targets `hfusion.matmul_mx` becomes `hivm.hir.mmadmxL1`:
//! operands bitcast from i8 storage in their declared fp8 format are read as
//! that storage (when both are), a transposed operand as its source with
//! `a_transpose`/`b_transpose`, and the accumulator is not cleared (init
//! condition false; upstream derives another only inside scopes it marks).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::types::FloatKind;
use hivm_ir::{Ir, OpId, TypeData, Value};

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
    if name == "hfusion.matmul_mx" {
        return Ok(Some(matmul_mx(cx, op)));
    }
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

/// What an operand is a bitcast of (`arith.bitcast` or `hfusion.bitcast`).
fn bitcast_source(ir: &Ir, v: Value) -> Option<Value> {
    let def = ir.defining_op(v)?;
    match ir.op_name(def) {
        "arith.bitcast" => ir.operands(def).first().copied(),
        "hfusion.bitcast" => super::ins_outs(ir, def).0.first().copied(),
        _ => None,
    }
}

/// Upstream's `getFormattedI8Source`: the i8 tensor `v` is a same-shaped
/// bitcast of, when `v`'s element type is the fp8 type `format` names
/// (1: e5m2, 2: e4m3; fp4 has no such storage).
fn formatted_i8_source(ir: &Ir, v: Value, format: Option<i128>) -> Option<Value> {
    let src = bitcast_source(ir, v)?;
    let (TypeData::RankedTensor { shape, elem, .. }, TypeData::RankedTensor { shape: src_shape, elem: src_elem, .. }) =
        (ir.type_data(ir.value_type(v)), ir.type_data(ir.value_type(src)))
    else {
        return None;
    };
    let matches = matches!(
        (format?, ir.type_data(*elem)),
        (1, TypeData::Float(FloatKind::F8E5M2)) | (2, TypeData::Float(FloatKind::F8E4M3FN))
    );
    let i8_storage = matches!(ir.type_data(*src_elem), TypeData::Integer { width: 8, .. });
    (matches && i8_storage && shape == src_shape).then_some(src)
}

/// A `linalg.transpose`d operand as its source.
fn untransposed(ir: &Ir, v: Value) -> Option<Value> {
    let def = ir.defining_op(v).filter(|d| ir.is_op(*d, "linalg.transpose"))?;
    ir.operands(def).first().copied()
}

/// Whether upstream would derive the init condition from the accumulator
/// (inside a `scope.scope` not limited to the cube, or with hfusion's
/// vectorisation off), which is not done here.
fn derived_init(ir: &Ir, op: OpId) -> bool {
    let mut cur = ir.parent_op(op);
    let mut in_scope = false;
    let mut module_off = false;
    while let Some(p) = cur {
        if ir.is_op(p, "scope.scope") && ir.get_attr(p, "hivm.matmul_limited_in_cube").is_none() {
            in_scope = true;
        }
        if ir.is_op(p, "builtin.module") && ir.get_attr(p, "hfusion.disableHfusionVectorize").is_some() {
            module_off = true;
        }
        cur = ir.parent_op(p);
    }
    in_scope || module_off
}

fn matmul_mx(cx: &mut Cx<'_>, op: OpId) -> bool {
    let ir = &mut *cx.ir;
    let operands = ir.operands(op).to_vec();
    let &[mut a, mut b, scale_a, scale_b, acc] = operands.as_slice() else { return false };
    if derived_init(ir, op) {
        return false;
    }
    let lhs = hivm_dialects::util::int_attr(ir, op, "lhsFormat");
    let rhs = hivm_dialects::util::int_attr(ir, op, "rhsFormat");
    if let (Some(x), Some(y)) = (formatted_i8_source(ir, a, lhs), formatted_i8_source(ir, b, rhs)) {
        (a, b) = (x, y);
    }
    let mut attrs = Vec::new();
    for key in ["lhsFormat", "rhsFormat"] {
        if let Some(v) = ir.get_attr(op, key) {
            attrs.push((key, v));
        }
    }
    for (v, key) in [(&mut a, "a_transpose"), (&mut b, "b_transpose")] {
        if let Some(src) = untransposed(ir, *v) {
            *v = src;
            attrs.push((key, ir.unit_attr()));
        }
    }
    let loc = ir.loc(op);
    let (i1, index) = (ir.int_type(1), ir.index_type());
    let no = ir.int_attr(0, i1);
    let no = Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[i1], vec![("value", no)], loc);
    let no = ir.result(no, 0);
    let zero = ir.int_attr(0, index);
    let zero =
        Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[index], vec![("value", zero)], loc);
    let zero = ir.result(zero, 0);
    let results = result_types(ir, op);
    let groups: [&[Value]; 9] = [&[a], &[b], &[scale_a], &[scale_b], &[no], &[zero], &[zero], &[zero], &[acc]];
    let new = build(ir, op, "hivm.hir.mmadmxL1", &groups, &results, attrs);
    replace_with(cx, op, new);
    true
}
