//! The `torch` ops with syntax of their own: the constants (results named
//! as torch-mlir names them: `%int5`, `%float2.500000e-01`, `%true`,
//! `%none`, `%str`, a device after its name), `prim.ListConstruct`, the
//! tensor literals, and the symbolic-shape ops of the TorchDynamo front end.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, attr, one, var};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::types::FloatKind;
use hivm_ir::{AttrData, Ir, OpDef, OpId, Traits, Type, TypeData, Value};

use super::types::{self, TorchType, summary};
use crate::util::push_attr;

const fn torch(body: &'static str, summary: &'static str) -> Fixed {
    Fixed::Dialect { dialect: "torch", body, summary }
}

const INT: Fixed = torch("int", summary::INT);
const CONSTANT: Traits = Traits::PURE.with(Traits::CONSTANT_LIKE);

fn torch_type(ir: &mut Ir, body: &str) -> Type {
    ir.ty(TypeData::Opaque { dialect: "torch".into(), body: body.into() })
}

fn type_text(ir: &Ir, t: Type) -> String {
    hivm_ir::printer::type_to_string(ir, t)
}

fn name_result(ir: &Ir, op: OpId, name: String, set: &mut dyn FnMut(Value, String)) {
    if let Some(&r) = ir.results(op).first() {
        set(r, name);
    }
}

// ----- constants -----

const CONSTANT_NONE: OpSpec = OpSpec {
    name: "torch.constant.none",
    results: &[one("result").of(torch("none", "Torch NoneType"))],
    format: "attr-dict",
    traits: CONSTANT,
    ..OpSpec::EMPTY
};

const CONSTANT_STR: OpSpec = OpSpec {
    name: "torch.constant.str",
    attrs: &[attr("value", AttrKind::Str)],
    results: &[one("result").of(torch("str", "Torch StringType"))],
    format: "$value attr-dict",
    traits: CONSTANT,
    ..OpSpec::EMPTY
};

const CONSTANT_DEVICE: OpSpec = OpSpec {
    name: "torch.constant.device",
    results: &[one("result").of(torch("Device", "Torch device"))],
    traits: Traits::PURE,
    ..CONSTANT_STR
};

const CONSTANT_INT: OpSpec = OpSpec {
    name: "torch.constant.int",
    attrs: &[attr("value", AttrKind::Int(64))],
    results: &[one("result").of(INT)],
    format: "$value attr-dict",
    traits: CONSTANT,
    ..OpSpec::EMPTY
};

const CONSTANT_BOOL: OpSpec = OpSpec {
    name: "torch.constant.bool",
    attrs: &[attr("value", AttrKind::Bool)],
    results: &[one("result").of(torch("bool", "Torch BoolType"))],
    format: "$value attr-dict",
    traits: CONSTANT,
    ..OpSpec::EMPTY
};

fn none_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    name_result(ir, op, "none".into(), set);
}

fn str_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    name_result(ir, op, "str".into(), set);
}

/// A device is named after itself (`%npu3A0` for `"npu:0"` once made a
/// valid name).
fn device_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    if let Some(v) = ir.get_attr(op, "value").and_then(|a| ir.as_str(a)) {
        name_result(ir, op, v.to_string(), set);
    }
}

fn int_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    if let Some(v) = ir.get_attr(op, "value").and_then(|a| ir.as_int(a)) {
        name_result(ir, op, format!("int{v}"), set);
    }
}

fn bool_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    if let Some(v) = ir.get_attr(op, "value").and_then(|a| ir.as_int(a)) {
        name_result(ir, op, if v != 0 { "true" } else { "false" }.into(), set);
    }
}

/// `torch.constant.float 2.5`: an `f64` written without its type.
fn parse_float(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let f64t = p.ir.float_type(FloatKind::F64);
    let value = p.parse_attribute(Some(f64t))?;
    if !matches!(p.ir.attr_data(value), AttrData::Float { ty, .. } if *ty == f64t) {
        return p.error_at(pos, "invalid kind of attribute specified");
    }
    push_attr(p, r, "value", value);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = torch_type(p.ir, "float");
    r.result_types.push(t);
    Ok(())
}

fn print_float(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(v) = ir.get_attr(op, "value") {
        p.push(" ");
        p.print_attr(v, Elide::Must);
    }
    p.print_optional_attr_dict(op, &["value"]);
}

fn f64_value(ir: &Ir, op: OpId) -> Option<f64> {
    match ir.get_attr(op, "value").map(|a| ir.attr_data(a)) {
        Some(AttrData::Float { bits, ty }) if matches!(ir.type_data(*ty), TypeData::Float(FloatKind::F64)) => {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
}

fn verify_float(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.get_attr(op, "value").is_none() {
        return Err("requires attribute 'value'".into());
    }
    if f64_value(ir, op).is_none() {
        return Err("attribute 'value' failed to satisfy constraint: 64-bit float attribute".into());
    }
    let t = ir.value_type(ir.result(op, 0));
    if types::of(ir, t) != TorchType::Simple("float") {
        return Err(format!("result #0 must be Torch FloatType, but got '{}'", type_text(ir, t)).into());
    }
    Ok(())
}

/// `float` and the value as LLVM's `APFloat::toString` writes it with six
/// digits, less what a name cannot hold (the exponent's `+`).
fn float_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    if let Some(v) = f64_value(ir, op) {
        name_result(ir, op, format!("float{}", six_digits(v).replace('+', "")), set);
    }
}

/// `APFloat::toString(6 digits, no padding, zeros kept)`: `2.500000e-01`,
/// `2.973020e-01` for 0.29730177875 (the printer's own digits, LLVM's
/// truncation quirk included).
fn six_digits(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-Inf" } else { "+Inf" }.into();
    }
    hivm_ir::printer::apfloat_to_string(v, 6, 0, false)
}

// ----- lists -----

const LIST_CONSTRUCT: OpSpec = OpSpec {
    name: "torch.prim.ListConstruct",
    operands: &[var("elements")],
    results: &[one("result")],
    format: "$elements attr-dict `:` functional-type(operands, results)",
    traits: Traits::PURE,
    verify: Some(verify_list_construct),
    ..OpSpec::EMPTY
};

fn verify_list_construct(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for (i, v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(*v);
        if !types::of(ir, t).is_any_torch() {
            return Err(format!(
                "operand #{i} must be variadic of {}, but got '{}'",
                summary::ANY_TORCH,
                type_text(ir, t)
            )
            .into());
        }
    }
    let rt = ir.value_type(ir.result(op, 0));
    let TorchType::List(elem) = types::of(ir, rt) else {
        return Err(format!("result #0 must be {}, but got '{}'", summary::LIST, type_text(ir, rt)).into());
    };
    if !ir.operands(op).iter().all(|v| types::is_subtype(&types::of(ir, ir.value_type(*v)), &elem)) {
        return Err(VerifyError::plain("operand types should have the same type as the list contained type"));
    }
    Ok(())
}

// ----- tensor literals -----

const VTENSOR_LITERAL: OpSpec = OpSpec {
    name: "torch.vtensor.literal",
    attrs: &[attr("value", AttrKind::Any)],
    results: &[one("result")],
    format: "`(` $value `)` attr-dict `:` type($result)",
    traits: CONSTANT,
    verify: Some(verify_literal),
    ..OpSpec::EMPTY
};

const TENSOR_LITERAL: OpSpec = OpSpec { name: "torch.tensor.literal", traits: Traits::NONE, ..VTENSOR_LITERAL };

/// The tensor type of an elements attribute (`dense`, `dense_resource`,
/// `sparse`).
fn elements_type(ir: &Ir, a: hivm_ir::Attribute) -> Option<Type> {
    match ir.attr_data(a) {
        AttrData::DenseElements { ty, .. }
        | AttrData::DenseResource { ty, .. }
        | AttrData::SparseElements { ty, .. } => Some(*ty),
        _ => None,
    }
}

/// Checks the literal's value and that its type is the one the value
/// implies (`ValueTensorLiteralOp::inferReturnTypes`): the value's shape
/// and element type. A `!torch.tensor` literal need only agree with it
/// where both are known.
fn verify_literal(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let value = ir.get_attr(op, "value").ok_or("requires attribute 'value'")?;
    let Some(vt) = elements_type(ir, value) else {
        return Err("attribute 'value' failed to satisfy constraint: constant vector/tensor attribute".into());
    };
    let rt = ir.value_type(ir.result(op, 0));
    let result = types::of(ir, rt);
    let value_semantics = ir.op_name(op) == "torch.vtensor.literal";
    let ok_kind =
        if value_semantics { result.is_vtensor() } else { matches!(result, TorchType::Tensor { value: false, .. }) };
    if !ok_kind {
        return Err(format!("result #0 must be {}, but got '{}'", summary::TENSOR, type_text(ir, rt)).into());
    }
    let TypeData::RankedTensor { shape, elem, .. } = ir.type_data(vt) else {
        return Err("the literal's value must have a ranked tensor type".into());
    };
    let sizes: Vec<i64> =
        shape.iter().map(|d| if *d == hivm_ir::types::DYNAMIC { types::UNKNOWN_SIZE } else { *d }).collect();
    let elem_text = type_text(ir, *elem);
    let inferred = |dtype: String| TorchType::Tensor {
        value: value_semantics,
        sizes: Some(sizes.clone()),
        dtype: Some(dtype),
        sparsity: None,
    };
    let exact = inferred(elem_text.clone());
    // Newer torch-mlir reads a signless integer literal (but `i1`) as signed.
    let signed = match ir.type_data(*elem) {
        TypeData::Integer { width, signedness: hivm_ir::types::Signedness::Signless } if *width > 1 => {
            Some(inferred(format!("si{width}")))
        }
        _ => None,
    };
    let ok = if value_semantics {
        result == exact || signed.as_ref() == Some(&result)
    } else {
        compatible(&exact, &result) || signed.as_ref().is_some_and(|s| compatible(s, &result))
    };
    if !ok {
        return Err(format!(
            "inferred type(s) '!torch.{}' are incompatible with return type(s) of operation '{}'",
            signed.unwrap_or(exact),
            type_text(ir, rt)
        )
        .into());
    }
    Ok(())
}

/// torch-mlir's `areSizesAndDtypesCompatible`.
fn compatible(a: &TorchType, b: &TorchType) -> bool {
    let (TorchType::Tensor { sizes: sa, dtype: da, .. }, TorchType::Tensor { sizes: sb, dtype: db, .. }) = (a, b)
    else {
        return false;
    };
    let sizes_ok = match (sa, sb) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|(p, q)| *p == types::UNKNOWN_SIZE || *q == types::UNKNOWN_SIZE || p == q)
        }
        _ => true,
    };
    let dtypes_ok = match (da, db) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    sizes_ok && dtypes_ok
}

// ----- symbolic shapes -----

const SYMBOLIC_INT: OpSpec = OpSpec {
    name: "torch.symbolic_int",
    attrs: &[
        attr("symbol_name", AttrKind::Str),
        attr("min_val", AttrKind::Int(64)),
        attr("max_val", AttrKind::Int(64)),
    ],
    results: &[one("result").of(INT)],
    format: "$symbol_name ` ` `{` `min_val` `=` $min_val `,` `max_val` `=` $max_val `}` attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

fn affine_map(ir: &Ir, op: OpId) -> Option<&hivm_ir::affine::AffineMap> {
    match ir.get_attr(op, "shape_expressions").map(|a| ir.attr_data(a)) {
        Some(AttrData::AffineMap(m)) => Some(m),
        _ => None,
    }
}

/// `%t, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<...>`.
fn parse_bind(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let operand = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let (symbols, map) = crate::symbol::parse_symbol_names_and_map(p)?;
    push_attr(p, r, "shape_expressions", map);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let v = p.resolve_operand(&operand, t)?;
    r.operands.push(v);
    let int = torch_type(p.ir, "int");
    for s in &symbols {
        let v = p.resolve_operand(s, int)?;
        r.operands.push(v);
    }
    Ok(())
}

/// The map is always written inline, as torch-mlir's printer does.
fn print_bind(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let operands = ir.operands(op);
    p.push(" ");
    p.print_value(operands[0]);
    p.push(", [");
    p.print_values(&operands[1..]);
    p.push("], ");
    match affine_map(ir, op) {
        Some(m) => {
            let mut text = String::new();
            m.print(&mut text);
            p.push(&format!("affine_map<{text}>"));
        }
        None => {
            if let Some(a) = ir.get_attr(op, "shape_expressions") {
                p.print_attr(a, Elide::Never);
            }
        }
    }
    p.print_optional_attr_dict(op, &["shape_expressions"]);
    p.push(" : ");
    p.print_type(ir.value_type(operands[0]));
}

fn verify_bind(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.get_attr(op, "shape_expressions").is_none() {
        return Err("requires attribute 'shape_expressions'".into());
    }
    let Some(map) = affine_map(ir, op) else {
        return Err("attribute 'shape_expressions' failed to satisfy constraint: AffineMap attribute".into());
    };
    let operands = ir.operands(op);
    let t = ir.value_type(operands[0]);
    if !types::of(ir, t).is_vtensor() {
        return Err(format!("operand #0 must be {}, but got '{}'", summary::TENSOR, type_text(ir, t)).into());
    }
    for (i, v) in operands.iter().enumerate().skip(1) {
        let t = ir.value_type(*v);
        if types::of(ir, t) != TorchType::Simple("int") {
            return Err(
                format!("operand #{i} must be variadic of {}, but got '{}'", summary::INT, type_text(ir, t)).into()
            );
        }
    }
    if operands.len() - 1 != map.num_symbols as usize {
        return Err("requires equal number of shape symbol args and symbol args to the attached affine map, since they are 1:1 mapped".into());
    }
    for v in &operands[1..] {
        if ir.defining_op(*v).is_none_or(|d| ir.op_name(d) != "torch.symbolic_int") {
            return Err("shape symbol must be produced by a SymbolicIntOp".into());
        }
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        CONSTANT_NONE.def().names(none_name),
        CONSTANT_STR.def().names(str_name),
        CONSTANT_DEVICE.def().names(device_name),
        CONSTANT_INT.def().names(int_name),
        CONSTANT_BOOL.def().names(bool_name),
        OpDef::new("torch.constant.float")
            .arity((0, Some(0)), (1, Some(1)), 0)
            .traits(CONSTANT.with(Traits::ZERO_REGIONS))
            .inherent(&["value"])
            .assembly(parse_float, print_float)
            .verifier(verify_float)
            .names(float_name),
        LIST_CONSTRUCT.def(),
        VTENSOR_LITERAL.def(),
        TENSOR_LITERAL.def(),
        SYMBOLIC_INT.def(),
        OpDef::new("torch.bind_symbolic_shape")
            .arity((1, None), (0, Some(0)), 0)
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["shape_expressions"])
            .assembly(parse_bind, print_bind)
            .verifier(verify_bind),
    ]
}

#[cfg(test)]
mod tests {
    use super::six_digits;

    #[test]
    fn float_names() {
        assert_eq!(six_digits(0.29730177875068026), "2.973020e-01");
        assert_eq!(six_digits(1.0), "1.000000e+00");
        assert_eq!(six_digits(0.0), "0.000000e+00");
        assert_eq!(six_digits(-2.5), "-2.500000e+00");
        // LLVM cuts the exact digits (9.99999949999...) to about six before
        // rounding, so this one does not round up.
        assert_eq!(six_digits(9.9999995), "9.999990e+00");
        assert_eq!(six_digits(1e-10), "1.000000e-10");
        assert_eq!(six_digits(1e100), "1.000000e+100");
    }
}
