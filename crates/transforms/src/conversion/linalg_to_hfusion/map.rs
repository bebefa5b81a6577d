//! `linalg.map { func.call @__hmf_<fn><suffix> }`: the library functions
//! hfusion (or linalg) has a named op for, matched by name prefix in
//! upstream's order (so `__hmf_log1p*` is `log1p` and `__hmf_log*` `log`).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, OpId, TypeData, Value};

use super::Cx;
use crate::conversion::to_hfusion::{element, empty_like, enum_attr, named, replace};

/// What a function becomes.
enum To {
    Unary(&'static str, &'static str),
    Binary(&'static str, &'static str),
    Recip,
    IsInf,
    IsNan,
    Round,
    Flip,
}

/// Name prefix -> conversion, first match wins.
const FUNCTIONS: &[(&str, To)] = &[
    ("__hmf_relu", To::Unary("hfusion", "relu")),
    ("__hmf_log1p", To::Unary("hfusion", "log1p")),
    ("__hmf_sqrt", To::Unary("hfusion", "sqrt")),
    ("__hmf_fabs", To::Unary("linalg", "abs")),
    ("__hmf_exp", To::Unary("linalg", "exp")),
    ("__hmf_rsqrt", To::Unary("hfusion", "rsqrt")),
    ("__hmf_log", To::Unary("linalg", "log")),
    ("__hmf_isinf", To::IsInf),
    ("__hmf_isnan", To::IsNan),
    ("__hmf_recipf", To::Recip),
    ("__hmf_recipDh", To::Recip),
    ("__hmf_rint", To::Round),
    ("__hmf_roundf", To::Round),
    ("__hmf_tanf", To::Unary("hfusion", "tan")),
    ("__hmf_tanDh", To::Unary("hfusion", "tan")),
    ("__hmf_tanhf", To::Unary("hfusion", "tanh")),
    ("__hmf_tanhDh", To::Unary("hfusion", "tanh")),
    ("__hmf_atan", To::Unary("hfusion", "atan")),
    ("__hmf_ilogb", To::Unary("hfusion", "ilogb")),
    ("__hmf_ldexp", To::Binary("hfusion", "ldexp")),
    ("__hmf_flip", To::Flip),
    ("__hmf_powf", To::Binary("hfusion", "powf")),
    ("__hmf_powi", To::Binary("hfusion", "powi")),
];

/// The callee of a mapper that is one `func.call` and its yield.
fn callee(cx: &Cx<'_>, op: OpId) -> Option<String> {
    let ir = &*cx.ir;
    let region = *ir.regions(op).first()?;
    let [block] = ir.region_blocks(region) else { return None };
    let ops: Vec<OpId> = ir.block_ops(*block).collect();
    let [call, _yield] = ops[..] else { return None };
    if !ir.is_op(call, "func.call") {
        return None;
    }
    match ir.get_attr(call, "callee").map(|a| ir.attr_data(a)) {
        Some(AttrData::SymbolRef { root, .. }) => Some(ir.sym_str(*root).to_string()),
        _ => None,
    }
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let Some(name) = callee(cx, op) else { return Ok(false) };
    // `rint` has an op on register-based targets only.
    let Some((_, to)) =
        FUNCTIONS.iter().find(|(prefix, _)| name.starts_with(prefix) && (cx.regbase || *prefix != "__hmf_rint"))
    else {
        return Ok(false);
    };
    let operands = cx.ir.operands(op).to_vec();
    let Some((&init, ins)) = operands.split_last() else { return Ok(false) };
    let results: Vec<Value> = match to {
        To::Unary(dialect, fun) | To::Binary(dialect, fun) => {
            let (kind, mnemonic) =
                if matches!(to, To::Unary(..)) { ("unary", "unary_fn") } else { ("binary", "binary_fn") };
            let f = enum_attr(cx.ir, dialect, mnemonic, fun);
            let new = named(cx.ir, op, &format!("{dialect}.elemwise_{kind}"), ins, &[init], vec![("fun", f)])?;
            cx.ir.results(new).to_vec()
        }
        To::IsInf | To::IsNan => {
            let ir = &mut *cx.ir;
            let (Some(&input), Some(&result)) = (ins.first(), ir.results(op).first()) else { return Ok(false) };
            let name = if matches!(to, To::IsInf) { "hfusion.isinf" } else { "hfusion.isnan" };
            let (t, loc) = (ir.value_type(result), ir.loc(op));
            let new = Builder::new(ir, InsertPoint::Before(op)).op(name, &[input], &[t], Vec::new(), loc);
            ir.results(new).to_vec()
        }
        To::Recip => match recip(cx, op, ins, init)? {
            Some(r) => r,
            None => return Ok(false),
        },
        To::Flip => {
            // hfusion flips the last dimension only (its one input there:
            // register-based targets pass a second, which has no operand
            // in this op's form).
            let ir = &mut *cx.ir;
            let (Some(&input), Some(&result)) = (ins.first(), ir.results(op).first()) else { return Ok(false) };
            let rank = ir.type_data(ir.value_type(input)).rank();
            let Some(axis) = rank.checked_sub(1) else { return Ok(false) };
            let (t, loc) = (ir.value_type(result), ir.loc(op));
            let axis = ir.i64_attr(axis as i64);
            let new = Builder::new(ir, InsertPoint::Before(op)).op(
                "hfusion.flip",
                &[input],
                &[t],
                vec![("flip_axis", axis)],
                loc,
            );
            ir.results(new).to_vec()
        }
        To::Round => {
            let Some(&input) = ins.first() else { return Ok(false) };
            round(cx, op, &name, input, init)?
        }
    };
    replace(cx.ir, op, &results, cx.map);
    Ok(true)
}

/// `1 / x`: a `linalg.fill` of 1.0 shaped like the input, divided by it.
fn recip(cx: &mut Cx<'_>, op: OpId, ins: &[Value], init: Value) -> Result<Option<Vec<Value>>, Diagnostic> {
    let ir = &mut *cx.ir;
    let Some(&input) = ins.first() else { return Ok(None) };
    let elem = element(ir, ir.value_type(init));
    let TypeData::Float(k) = *ir.type_data(elem) else { return Ok(None) };
    let Some(bits) = hivm_ir::parser::float_bits(k, "1.0", false) else { return Ok(None) };
    let loc = ir.loc(op);
    let one = ir.attr(AttrData::Float { bits, ty: elem });
    let c = Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[elem], vec![("value", one)], loc);
    let c = ir.result(c, 0);
    let in_elem = element(ir, ir.value_type(input));
    let empty = empty_like(ir, op, input, in_elem);
    let Some(ones) = hivm_dialects::linalg::build_fill(ir, InsertPoint::Before(op), c, empty, loc) else {
        return Ok(None);
    };
    let div = enum_attr(ir, "linalg", "binary_fn", "div");
    let new = named(ir, op, "linalg.elemwise_binary", &[ones, input], &[init], vec![("fun", div)])?;
    Ok(Some(ir.results(new).to_vec()))
}

/// Rounding to an integral value as an `hfusion.cast` to the same type:
/// into the init with `round`, or on register-based targets in place with
/// saturation (`rint` or `round`).
fn round(cx: &mut Cx<'_>, op: OpId, name: &str, input: Value, init: Value) -> Result<Vec<Value>, Diagnostic> {
    let ir = &mut *cx.ir;
    let mode = if name.starts_with("__hmf_rint") { "rint" } else { "round" };
    let round = enum_attr(ir, "hfusion", "round_mode", mode);
    let new = if cx.regbase {
        let t = ir.bool_attr(true);
        let cast = enum_attr(ir, "hfusion", "type_fn", "cast_signed");
        let unsigned = enum_attr(ir, "hfusion", "unsigned_mode", "si2si");
        let attrs = vec![
            ("round_mode", round),
            ("enable_overflow", t),
            ("enable_saturate", t),
            ("cast", cast),
            ("unsigned_mode", unsigned),
        ];
        named(ir, op, "hfusion.cast", &[input], &[input], attrs)?
    } else {
        named(ir, op, "hfusion.cast", &[input], &[init], vec![("round_mode", round)])?
    };
    Ok(ir.results(new).to_vec())
}
