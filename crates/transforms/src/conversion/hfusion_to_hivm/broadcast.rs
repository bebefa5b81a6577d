//! `linalg.fill` and `linalg.broadcast` become `hivm.hir.vbrc`. A fill
//! broadcasts its scalar; a broadcast's input is first reshaped to the
//! output's rank with unit dimensions where it is broadcast.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId, TypeData};

use super::{Cx, build, ins_outs, refuse, replace_with, result_types};

/// Upstream requires pure tensor or pure buffer semantics (else refuses).
pub(super) fn mixed_semantics(ir: &Ir, op: OpId) -> Option<String> {
    let shaped: Vec<bool> = ir
        .operands(op)
        .iter()
        .filter(|v| ir.type_data(ir.value_type(**v)).is_shaped())
        .map(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::RankedTensor { .. }))
        .collect();
    if shaped.iter().all(|t| *t) || shaped.iter().all(|t| !*t) {
        return None;
    }
    let (dialect, short) = ir.op_name(op).split_once('.').unwrap_or(("linalg", ir.op_name(op)));
    let kind = format!("{}{}", short[..1].to_uppercase(), &short[1..]);
    Some(format!("{dialect}::{kind}Op should have pure buffer or tensor Semantics!"))
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<Option<bool>, Diagnostic> {
    match name {
        "linalg.fill" | "linalg.broadcast" if let Some(why) = mixed_semantics(cx.ir, op) => refuse(cx.ir, op, &why),
        "linalg.fill" => {
            let (ins, outs) = ins_outs(cx.ir, op);
            let results = result_types(cx.ir, op);
            let new = build(cx.ir, op, "hivm.hir.vbrc", &[&ins, &outs], &results, Vec::new());
            replace_with(cx, op, new);
            Ok(Some(true))
        }
        "linalg.broadcast" => {
            let ir = &mut *cx.ir;
            let (input, init) = (ir.operand(op, 0), ir.operand(op, 1));
            let dims = hivm_dialects::util::i64_array(ir, op, "dimensions");
            let rank = ir.type_data(ir.value_type(init)).rank() as i64;
            let Some(src) = super::reshape::expand(ir, op, input, &dims, rank) else { return Ok(Some(false)) };
            let results = result_types(ir, op);
            let d = hivm_dialects::util::i64_array_attr(ir, &dims);
            let new = build(ir, op, "hivm.hir.vbrc", &[&[src], &[init]], &results, vec![("broadcast_dims", d)]);
            replace_with(cx, op, new);
            Ok(Some(true))
        }
        _ => Ok(None),
    }
}
