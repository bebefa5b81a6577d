//! `cmpf` and `cmpi` become `hfusion.compare` (ordered and unordered float
//! predicates alike; on register-based targets an ordering compare of i1
//! is made on the operands widened to i8), `select` becomes
//! `hfusion.select`.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{OpId, Value};

use super::Cx;
use crate::conversion::to_hfusion::{destinations, empty_like, enum_attr, named, replace};

/// `#hfusion.compare_fn` of an `arith.cmpf` predicate (none for `false`,
/// `true`, `ord` and `uno`).
fn float_fn(pred: &str) -> Option<&'static str> {
    Some(match pred {
        "oeq" | "ueq" => "veq",
        "one" | "une" => "vne",
        "ole" | "ule" => "vle",
        "olt" | "ult" => "vlt",
        "oge" | "uge" => "vge",
        "ogt" | "ugt" => "vgt",
        _ => return None,
    })
}

fn int_fn(pred: &str) -> Option<&'static str> {
    Some(match pred {
        "eq" => "veq",
        "ne" => "vne",
        "slt" => "vlt",
        "sgt" => "vgt",
        "sle" => "vle",
        "sge" => "vge",
        "ule" => "vule",
        "uge" => "vuge",
        "ugt" => "vugt",
        "ult" => "vult",
        _ => return None,
    })
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, short: &str) -> Result<Option<bool>, Diagnostic> {
    match short {
        "cmpf" | "cmpi" => compare(cx, op, short == "cmpf").map(Some),
        "select" => select(cx, op).map(Some),
        _ => Ok(None),
    }
}

fn compare(cx: &mut Cx<'_>, op: OpId, float: bool) -> Result<bool, Diagnostic> {
    let ir = &*cx.ir;
    let pred = ir.get_attr(op, "predicate").and_then(|a| hivm_dialects::arith::predicate_name(ir, float, a));
    let Some(pred) = pred else { return Ok(false) };
    let Some(mut fun) = (if float { float_fn(pred) } else { int_fn(pred) }) else {
        return Err(Diagnostic::error(ir.loc(op), format!("unsupported arith cmp predicate to hfusion: {pred}")));
    };
    let mut ins = ir.operands(op).to_vec();
    let is_i1 = ir.type_data(super::super::to_hfusion::element(ir, ir.value_type(ins[0]))).is_signless_int(1);
    let widen = cx.regbase && !float && is_i1 && !matches!(pred, "eq" | "ne");
    let Some(outs) = destinations(cx.ir, op) else { return Ok(false) };
    if widen {
        // i1 has no signedness: the unsigned orderings become the plain ones.
        fun = match pred {
            "ult" => "vlt",
            "ugt" => "vgt",
            "ule" => "vle",
            "uge" => "vge",
            _ => return Err(Diagnostic::error(cx.ir.loc(op), "i1 type cannot have signness information")),
        };
        let i8 = cx.ir.int_type(8);
        ins = ins.iter().map(|v| widen_i1(cx, op, *v, i8)).collect::<Result<_, _>>()?;
    }
    let ir = &mut *cx.ir;
    let f = enum_attr(ir, "hfusion", "compare_fn", fun);
    let new = named(ir, op, "hfusion.compare", &ins, &outs, vec![("compare_fn", f)])?;
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    Ok(true)
}

/// `arith.extui` to i8, converted as this pass converts it.
fn widen_i1(cx: &mut Cx<'_>, at: OpId, v: Value, i8: hivm_ir::Type) -> Result<Value, Diagnostic> {
    let init = empty_like(cx.ir, at, v, i8);
    super::cast::build_cast(cx, at, "extui", v, init)
}

fn select(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let Some(outs) = destinations(cx.ir, op) else { return Ok(false) };
    let ir = &mut *cx.ir;
    let ins = ir.operands(op).to_vec();
    let new = named(ir, op, "hfusion.select", &ins, &outs, Vec::new())?;
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    Ok(true)
}
