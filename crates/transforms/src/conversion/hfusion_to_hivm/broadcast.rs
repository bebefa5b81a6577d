//! `linalg.fill` and `linalg.broadcast` become `hivm.hir.vbrc`. A fill
//! broadcasts its scalar; a broadcast's input is first reshaped to the
//! output's rank with unit dimensions where it is broadcast.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId, TypeData};

use super::{Cx, build, ins_outs, replace_with, result_types, unsupported};

/// Upstream requires pure tensor or pure buffer semantics.
fn check_semantics(ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
    let shaped: Vec<bool> = ir
        .operands(op)
        .iter()
        .filter(|v| ir.type_data(ir.value_type(**v)).is_shaped())
        .map(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::RankedTensor { .. }))
        .collect();
    if shaped.iter().all(|t| *t) || shaped.iter().all(|t| !*t) {
        return Ok(());
    }
    let short = ir.op_name(op).trim_start_matches("linalg.");
    let kind = format!("{}{}", short[..1].to_uppercase(), &short[1..]);
    Err(unsupported(ir, op, &format!("linalg::{kind}Op should have pure buffer or tensor Semantics!")))
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<Option<bool>, Diagnostic> {
    match name {
        "linalg.fill" => {
            check_semantics(cx.ir, op)?;
            let (ins, outs) = ins_outs(cx.ir, op);
            let results = result_types(cx.ir, op);
            let new = build(cx.ir, op, "hivm.hir.vbrc", &[&ins, &outs], &results, Vec::new());
            replace_with(cx, op, new);
            Ok(Some(true))
        }
        "linalg.broadcast" => {
            check_semantics(cx.ir, op)?;
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
