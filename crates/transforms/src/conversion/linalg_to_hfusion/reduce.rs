//! `linalg.reduce {reduce_mode = "max_with_index" | "min_with_index",
//! tie_break_left = "true" | "false"}` (values and indices in, the best value
//! and its index out) is `hfusion.reduce_with_index`. On memory-based
//! targets the kind is unsigned when the body compares the values with an
//! unsigned predicate, and the index input is kept only when an
//! `annotation.mark {UseIndexInput}` says it is used; register-based targets
//! always keep it and require `unsigned_src`.

use hivm_ir::builder::InsertPoint;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, Ir, OpId, Value};

use super::Cx;
use crate::conversion::to_hfusion::replace;

fn string_attr(ir: &Ir, op: OpId, key: &str) -> Option<String> {
    match ir.get_attr(op, key).map(|a| ir.attr_data(a)) {
        Some(AttrData::String { value, .. }) => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// Whether the body compares the first input's element unsigned.
fn unsigned_compare(ir: &Ir, op: OpId) -> bool {
    let Some(&region) = ir.regions(op).first() else { return false };
    let Some(&block) = ir.region_blocks(region).first() else { return false };
    let Some(&value) = ir.block_args(block).first() else { return false };
    let mut found = false;
    ir.walk(op, &mut |o| {
        if ir.is_op(o, "arith.cmpi") && ir.operands(o).contains(&value) {
            let pred = ir.get_attr(o, "predicate").and_then(|a| hivm_dialects::arith::predicate_name(ir, false, a));
            found |= matches!(pred, Some("ult" | "ugt" | "ule" | "uge"));
        }
    });
    found
}

/// Whether an `annotation.mark` with `UseIndexInput` marks `v` (upstream
/// looks among its users).
fn marked_used(ir: &Ir, op: OpId, v: Value) -> bool {
    let scope = ir.parent_op(op).unwrap_or(op);
    let mut found = false;
    ir.walk(scope, &mut |o| {
        found |= ir.is_op(o, "annotation.mark")
            && ir.operands(o).first() == Some(&v)
            && ir.get_attr(o, "UseIndexInput").is_some();
    });
    found
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let ir = &mut *cx.ir;
    let Some(mode) = string_attr(ir, op, "reduce_mode") else { return Ok(false) };
    let unsigned = !cx.regbase && unsigned_compare(ir, op);
    let kind = match (mode.as_str(), unsigned) {
        ("max_with_index", true) => "maxui",
        ("max_with_index", false) => "max",
        ("min_with_index", true) => "minui",
        ("min_with_index", false) => "min",
        _ => return Ok(false),
    };
    let mut flags = Vec::new();
    if cx.regbase {
        let Some(src) = string_attr(ir, op, "unsigned_src") else { return Ok(false) };
        flags.push(("unsigned_src", src == "true"));
        flags.push(("tie_break_left", string_attr(ir, op, "tie_break_left").is_none_or(|t| t == "true")));
    } else {
        match string_attr(ir, op, "tie_break_left").as_deref() {
            Some("true") => flags.push(("tie_break_left", true)),
            Some("false") => flags.push(("tie_break_left", false)),
            _ => return Ok(false),
        }
    }
    let operands = ir.operands(op).to_vec();
    let (ins, inits) = operands.split_at(operands.len() / 2);
    if ins.len() != 2 || inits.len() != 2 {
        return Ok(false);
    }
    let ins = if cx.regbase || marked_used(ir, op, ins[1]) { ins } else { &ins[..1] };
    let dims = hivm_dialects::util::i64_array(ir, op, "dimensions");
    let loc = ir.loc(op);
    let new = hivm_dialects::hfusion::build_reduce_with_index(
        ir,
        InsertPoint::Before(op),
        kind,
        ins,
        inits,
        &dims,
        &flags,
        loc,
    )
    .map_err(|e| Diagnostic::error(loc, e))?;
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    Ok(true)
}
