//! The named elementwise ops, compares, selects, casts and the extended
//! multiplications become `hivm.hir.v*` on the same `ins`/`outs`.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, Attribute, OpId, TypeData, Value};

use super::{Cx, build, enum_value, hivm_enum, ins_outs, replace_with, result_types, unsupported};

/// `None` when `name` is not of this family.
pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<Option<bool>, Diagnostic> {
    let target = match name {
        "linalg.elemwise_unary" => linalg_unary(cx, op)?,
        "linalg.elemwise_binary" => linalg_binary(cx, op)?,
        "hfusion.elemwise_unary" => hfusion_unary(cx, op)?,
        "hfusion.elemwise_binary" => {
            extract_shift_amount(cx, op);
            hfusion_binary(cx, op)?
        }
        "hfusion.compare" => compare(cx, op)?,
        "hfusion.select" => Target::plain("hivm.hir.vsel"),
        "hfusion.cast" => cast(cx, op),
        "hfusion.mulext" | "hfusion.mulextui" => return mul_extended(cx, op, name).map(Some),
        _ => return Ok(None),
    };
    let (ins, outs) = ins_outs(cx.ir, op);
    let results = result_types(cx.ir, op);
    let new = match target.negate {
        // `negf` is a multiplication by -1.
        true => {
            let Some(&x) = ins.first() else { return Ok(Some(false)) };
            let minus_one = minus_one(cx, op, x)?;
            build(cx.ir, op, "hivm.hir.vmul", &[&[x, minus_one], &outs], &results, target.attrs)
        }
        false => build(cx.ir, op, target.name, &[&ins, &outs], &results, target.attrs),
    };
    if let Some(cast) = target.copy_cast.then(|| cx.ir.get_attr(op, "cast")).flatten() {
        cx.ir.set_attr(new, "cast", cast);
    }
    super::operands::fix_scalars(cx, new)?;
    replace_with(cx, op, new);
    Ok(Some(true))
}

/// The HIVM op one source op becomes, with its attributes.
struct Target {
    name: &'static str,
    attrs: Vec<(&'static str, Attribute)>,
    /// hfusion's unary and binary ops hand their `cast` attribute on.
    copy_cast: bool,
    negate: bool,
}

impl Target {
    fn plain(name: &'static str) -> Target {
        Target { name, attrs: Vec::new(), copy_cast: false, negate: false }
    }
}

fn fun(cx: &Cx<'_>, op: OpId, mnemonic: &str) -> String {
    enum_value(cx.ir, op, "fun", mnemonic).unwrap_or_default()
}

fn linalg_unary(cx: &mut Cx<'_>, op: OpId) -> Result<Target, Diagnostic> {
    let f = fun(cx, op, "unary_fn");
    Ok(match f.as_str() {
        "exp" => Target::plain("hivm.hir.vexp"),
        "log" => Target::plain("hivm.hir.vln"),
        "abs" => Target::plain("hivm.hir.vabs"),
        "negf" => Target { negate: true, ..Target::plain("hivm.hir.vmul") },
        _ => return Err(unsupported(cx.ir, op, &format!("has unsupported linalg unary operation kind '{f}'"))),
    })
}

fn linalg_binary(cx: &mut Cx<'_>, op: OpId) -> Result<Target, Diagnostic> {
    let f = fun(cx, op, "binary_fn");
    let (name, sign_key) = match f.as_str() {
        "add" => ("hivm.hir.vadd", None),
        "mul" => ("hivm.hir.vmul", None),
        "sub" => ("hivm.hir.vsub", None),
        "div" | "div_unsigned" => ("hivm.hir.vdiv", Some("isSigned")),
        "max_signed" | "max_unsigned" => ("hivm.hir.vmax", Some("is_signed")),
        "min_signed" | "min_unsigned" => ("hivm.hir.vmin", Some("is_signed")),
        _ => return Err(unsupported(cx.ir, op, &format!("has unsupported linalg binary operation kind '{f}'"))),
    };
    let mut t = Target::plain(name);
    // Only register-based targets tell signedness apart.
    if let Some(key) = sign_key.filter(|_| cx.regbase) {
        let signed = !matches!(f.as_str(), "div_unsigned" | "max_unsigned" | "min_unsigned");
        t.attrs.push((key, cx.ir.bool_attr(signed)));
    }
    Ok(t)
}

fn hfusion_unary(cx: &mut Cx<'_>, op: OpId) -> Result<Target, Diagnostic> {
    let f = fun(cx, op, "unary_fn");
    let name = match f.as_str() {
        "relu" => "hivm.hir.vrelu",
        "sqrt" => "hivm.hir.vsqrt",
        "rsqrt" => "hivm.hir.vrsqrt",
        "rec" => "hivm.hir.vrec",
        "vnot" => "hivm.hir.vnot",
        "tanh" => "hivm.hir.vtanh",
        "sin" => "hivm.hir.vsin",
        "cos" => "hivm.hir.vcos",
        "absi" => "hivm.hir.vabs",
        "erf" => "hivm.hir.verf",
        _ => return Err(unsupported(cx.ir, op, &format!("has unsupported hfusion unary operation kind '{f}'"))),
    };
    Ok(Target { copy_cast: true, ..Target::plain(name) })
}

fn hfusion_binary(cx: &mut Cx<'_>, op: OpId) -> Result<Target, Diagnostic> {
    let f = fun(cx, op, "binary_fn");
    let name = match f.as_str() {
        "vor" => "hivm.hir.vor",
        "vand" => "hivm.hir.vand",
        "vxor" => "hivm.hir.vxor",
        "minf" => "hivm.hir.vmin",
        "maxf" => "hivm.hir.vmax",
        "powi" => "hivm.hir.vpow",
        "shli" => "hivm.hir.vshl",
        "shrsi" | "shrui" => "hivm.hir.vshr",
        "divfhp" => "hivm.hir.vdiv",
        "mod" => "hivm.hir.vmod",
        "modui" => "hivm.hir.vmodui",
        _ => return Err(unsupported(cx.ir, op, &format!("has unsupported hfusion binary operation kind '{f}'"))),
    };
    let mut t = Target { copy_cast: true, ..Target::plain(name) };
    match f.as_str() {
        "divfhp" => {
            t.attrs.push(("isSigned", cx.ir.bool_attr(true)));
            t.attrs.push(("isHP", cx.ir.bool_attr(true)));
        }
        "shrui" if cx.regbase => t.attrs.push(("is_signed", cx.ir.bool_attr(false))),
        _ => {}
    }
    Ok(t)
}

fn compare(cx: &mut Cx<'_>, op: OpId) -> Result<Target, Diagnostic> {
    let f = enum_value(cx.ir, op, "compare_fn", "compare_fn").unwrap_or_default();
    let (mode, signed) = match f.as_str() {
        "veq" => ("eq", true),
        "vne" => ("ne", true),
        "vle" => ("le", true),
        "vlt" => ("lt", true),
        "vge" => ("ge", true),
        "vgt" => ("gt", true),
        "vule" => ("le", false),
        "vult" => ("lt", false),
        "vuge" => ("ge", false),
        "vugt" => ("gt", false),
        _ => return Err(unsupported(cx.ir, op, &format!("has unsupported compare kind '{f}'"))),
    };
    let mut t = Target::plain("hivm.hir.vcmp");
    t.attrs.push(("compare_mode", hivm_enum(cx.ir, "compare_mode", mode)));
    if cx.regbase {
        t.attrs.push(("is_signed", cx.ir.bool_attr(signed)));
    }
    Ok(t)
}

/// `vcast` with the rounding and signedness of the `hfusion.cast`; on
/// register-based targets also its overflow, saturation and unsigned modes.
fn cast(cx: &mut Cx<'_>, op: OpId) -> Target {
    let ir = &mut *cx.ir;
    let round = enum_value(ir, op, "round_mode", "round_mode").unwrap_or_else(|| "rint".into());
    let signed = enum_value(ir, op, "cast", "type_fn").unwrap_or_else(|| "cast_signed".into());
    let mut t = Target::plain("hivm.hir.vcast");
    t.attrs.push(("round_mode", hivm_enum(ir, "round_mode", &round)));
    t.attrs.push(("cast", hivm_enum(ir, "cast", &signed)));
    if cx.regbase {
        let flag = |ir: &mut hivm_ir::Ir, key| {
            let on = ir.get_attr(op, key).and_then(|a| ir.as_int(a)).is_some_and(|v| v != 0);
            ir.bool_attr(on)
        };
        let overflow = flag(ir, "enable_overflow");
        let saturate = flag(ir, "enable_saturate");
        let mode = enum_value(ir, op, "unsigned_mode", "unsigned_mode").unwrap_or_else(|| "si2si".into());
        t.attrs.push(("enable_overflow", overflow));
        t.attrs.push(("enable_saturate", saturate));
        t.attrs.push(("unsigned_mode", hivm_enum(ir, "unsigned_mode", &mode)));
    }
    t
}

/// Upstream's `ExtractScalarForBinaryShiftOp`: a shift amount that holds
/// one value (rank 0, a splat constant, all sizes 1) is used as a scalar.
fn extract_shift_amount(cx: &mut Cx<'_>, op: OpId) {
    if !matches!(fun(cx, op, "binary_fn").as_str(), "shli" | "shrsi" | "shrui") {
        return;
    }
    let (ins, _) = ins_outs(cx.ir, op);
    let Some(&rhs) = ins.get(1) else { return };
    let ir = &mut *cx.ir;
    let t = ir.value_type(rhs);
    let TypeData::RankedTensor { shape, elem, .. } = ir.type_data(t).clone() else { return };
    let loc = ir.loc(op);
    let scalar = if let Some(value) = splat_value(ir, rhs, elem) {
        let c =
            Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[elem], vec![("value", value)], loc);
        ir.result(c, 0)
    } else if shape.iter().all(|d| *d == 1) {
        let index = ir.index_type();
        let zero = ir.int_attr(0, index);
        let c =
            Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[index], vec![("value", zero)], loc);
        let zero = ir.result(c, 0);
        let mut operands = vec![rhs];
        operands.extend(std::iter::repeat_n(zero, shape.len()));
        let e = Builder::new(ir, InsertPoint::Before(op)).op("tensor.extract", &operands, &[elem], vec![], loc);
        ir.result(e, 0)
    } else {
        return;
    };
    ir.set_operand(op, 1, scalar);
}

/// The element of a splat `arith.constant` tensor, as an attribute of `elem`.
fn splat_value(ir: &mut hivm_ir::Ir, v: Value, elem: hivm_ir::Type) -> Option<Attribute> {
    let def = ir.defining_op(v).filter(|d| ir.is_op(*d, "arith.constant"))?;
    let value = ir.get_attr(def, "value")?;
    let first = match ir.attr_data(value) {
        AttrData::DenseElements { splat: true, elems, .. } => elems.first()?.clone(),
        _ => return None,
    };
    Some(match first {
        hivm_ir::attrs::DenseElem::Int(i) => ir.int_attr(i, elem),
        hivm_ir::attrs::DenseElem::Float(bits) => ir.attr(AttrData::Float { bits: bits as u128, ty: elem }),
        _ => return None,
    })
}

/// `arith.constant -1.0 : T` for the float element type `T` of `like`.
fn minus_one(cx: &mut Cx<'_>, at: OpId, like: Value) -> Result<Value, Diagnostic> {
    let ir = &mut *cx.ir;
    let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(like));
    let bits = match ir.type_data(elem) {
        TypeData::Float(k) => hivm_ir::parser::float_bits(*k, "1.0", true),
        _ => None,
    };
    let Some(bits) = bits else { return Err(unsupported(ir, at, "negates a non-float value")) };
    let attr = ir.attr(AttrData::Float { bits, ty: elem });
    let loc = ir.loc(at);
    let c = Builder::new(ir, InsertPoint::Before(at)).op("arith.constant", &[], &[elem], vec![("value", attr)], loc);
    Ok(ir.result(c, 0))
}

/// `hfusion.mulext{,ui}` (low and high halves) into fresh destinations.
fn mul_extended(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<bool, Diagnostic> {
    let Some(outs) = super::super::to_hfusion::destinations(cx.ir, op) else { return Ok(false) };
    let ins = cx.ir.operands(op).to_vec();
    let results = result_types(cx.ir, op);
    let target = if name == "hfusion.mulext" { "hivm.hir.vmulext" } else { "hivm.hir.vmulextui" };
    let new = build(cx.ir, op, target, &[&ins, &outs], &results, Vec::new());
    super::operands::fix_scalars(cx, new)?;
    replace_with(cx, op, new);
    Ok(true)
}
