//! Conversions: `truncf`, `extf`, `fpto{si,ui}`, `{si,ui}tofp`, `ext{si,ui}`,
//! `trunci` become `hfusion.cast` with upstream's rounding mode and
//! signedness; `bitcast` becomes `hfusion.bitcast`.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::types::FloatKind;
use hivm_ir::{Ir, OpId, Type, TypeData, Value};

use super::Cx;
use crate::conversion::to_hfusion::{destinations, element, empty_like, enum_attr, named, replace};

const CASTS: &[&str] = &["truncf", "extf", "fptosi", "fptoui", "sitofp", "uitofp", "extsi", "extui", "trunci"];

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, short: &str) -> Result<Option<bool>, Diagnostic> {
    if short == "bitcast" {
        return bitcast(cx, op).map(Some);
    }
    if !CASTS.contains(&short) {
        return Ok(None);
    }
    let Some(outs) = destinations(cx.ir, op) else { return Ok(Some(false)) };
    let src = cx.ir.operands(op)[0];
    let new = build_cast(cx, op, short, src, outs[0])?;
    replace(cx.ir, op, &[new], cx.map);
    Ok(Some(true))
}

/// `hfusion.cast` of `src` into `init` as the arith op `short` converts,
/// built before `at`.
pub(super) fn build_cast(cx: &mut Cx<'_>, at: OpId, short: &str, src: Value, init: Value) -> Result<Value, Diagnostic> {
    let ir = &mut *cx.ir;
    let (from, to) = (element(ir, ir.value_type(src)), element(ir, ir.value_type(init)));
    let round = round_mode(ir, short, from, to, cx.regbase).ok_or_else(|| {
        Diagnostic::error(
            ir.loc(at),
            format!(
                "unsupported datatype for arith.{short} to hfusion: {} to {}",
                hivm_dialects::util::type_str(ir, from),
                hivm_dialects::util::type_str(ir, to)
            ),
        )
    })?;
    let signed = if unsigned_cast(ir, short, from, to, cx.regbase) { "cast_unsigned" } else { "cast_signed" };
    let round = enum_attr(ir, "hfusion", "round_mode", round);
    let cast = enum_attr(ir, "hfusion", "type_fn", signed);
    let new = named(ir, at, "hfusion.cast", &[src], &[init], vec![("round_mode", round), ("cast", cast)])?;
    Ok(ir.results(new)[0])
}

fn float(ir: &Ir, t: Type) -> Option<FloatKind> {
    match ir.type_data(t) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

fn width(ir: &Ir, t: Type) -> Option<u32> {
    match ir.type_data(t) {
        TypeData::Integer { width, .. } => Some(*width),
        _ => None,
    }
}

/// Upstream's `isOverFlowMode`: the narrowing conversions that wrap.
fn overflows(ir: &Ir, from: Type, to: Type) -> bool {
    use FloatKind::*;
    matches!(
        (float(ir, from), width(ir, from), width(ir, to)),
        (Some(F32), _, Some(16 | 8))
            | (Some(F16), _, Some(8))
            | (_, Some(16), Some(8))
            | (_, Some(32), Some(16 | 8))
            | (_, Some(64), Some(8 | 16 | 32))
    )
}

/// The rounding mode upstream picks; `None` for the float conversions it
/// rejects (a fatal error there).
fn round_mode(ir: &Ir, short: &str, from: Type, to: Type, regbase: bool) -> Option<&'static str> {
    use FloatKind::*;
    let (f, t) = (float(ir, from), float(ir, to));
    let fp8 = |k: Option<FloatKind>| matches!(k, Some(F8E4M3FN | F8E5M2));
    let wide = |k: Option<FloatKind>| matches!(k, Some(F32 | F16 | BF16));
    match short {
        "truncf" => match (f, t) {
            (Some(F32), Some(F16 | BF16 | F32)) => Some("rint"),
            _ if regbase && wide(f) && fp8(t) => Some("rint"),
            _ => None,
        },
        "extf" => match (f, t) {
            (Some(F16 | BF16), Some(F32)) => Some("rint"),
            _ if regbase && fp8(f) && wide(t) => Some("rint"),
            _ => None,
        },
        "trunci" if overflows(ir, from, to) => Some("truncwithoverflow"),
        "fptosi" | "fptoui" if overflows(ir, from, to) => Some("truncwithoverflow"),
        "fptosi" | "fptoui" => Some("trunc"),
        _ => Some("rint"),
    }
}

/// Upstream's `selectCast`: unsigned for `uitofp`/`fptoui` and for `extui`
/// from i8 (and, on register-based targets, from i1, i16 and i32).
fn unsigned_cast(ir: &Ir, short: &str, from: Type, to: Type, regbase: bool) -> bool {
    match short {
        "uitofp" | "fptoui" => true,
        "extui" => {
            let (w, to_w, to_float) = (width(ir, from), width(ir, to), float(ir, to).is_some());
            let wider = matches!(to_w, Some(16 | 32 | 64));
            match w {
                Some(8) => wider,
                Some(1) => regbase && (wider || to_float),
                Some(16) => regbase && matches!(to_w, Some(32 | 64)),
                Some(32) => regbase && to_w == Some(64),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `hfusion.bitcast` into a `tensor.empty` shaped like the input.
fn bitcast(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let ir = &mut *cx.ir;
    let src = ir.operands(op)[0];
    let to = element(ir, ir.value_type(ir.results(op)[0]));
    let init = empty_like(ir, op, src, to);
    let new = named(ir, op, "hfusion.bitcast", &[src], &[init], Vec::new())?;
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    Ok(true)
}
