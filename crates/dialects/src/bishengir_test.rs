//! The `bishengir_test` dialect bishengir-opt registers for its own tests:
//! structured ops carrying one HIVM trait each (elementwise arity, same rank,
//! broadcast/transpose on the fly, vector/scalar operands), and ops whose
//! operands are restricted to element types. Each op is one declarative
//! definition; the trait checks are `hivm::traits`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, ValueDef, default_attr, var};
use hivm_ir::{Dialect, Ir, OpId, Type, TypeData};

use crate::hivm::traits;
use crate::util::element_or_self;

const STRUCTURED: &[ValueDef] = &[var("src"), var("dst")];
const RESULTS: &[ValueDef] = &[var("result")];
const INPUTS: &[ValueDef] = &[var("input")];

/// Inputs and inits of a structured test op, and the destination-style
/// result checks every one of them has.
fn split(ir: &Ir, op: OpId) -> Result<(&[hivm_ir::Value], &[hivm_ir::Value]), VerifyError> {
    let (src, dst) = (crate::util::segment(ir, op, 0), crate::util::segment(ir, op, 1));
    crate::hivm::ops::verify_dps(ir, op, src.len()..src.len() + dst.len())?;
    Ok((src, dst))
}

fn arity(name: &str) -> usize {
    match name {
        "bishengir_test.elementwise_unary" => 1,
        "bishengir_test.elementwise_binary" => 2,
        _ => 3,
    }
}

fn verify_elementwise(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (src, dst) = split(ir, op)?;
    traits::same_rank(ir, op, ir.operands(op))?;
    traits::elementwise_nary(ir, op, arity(ir.op_name(op)), src, dst, 0)
}

fn verify_vector_scalar(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    split(ir, op)?;
    traits::vector_only(ir, op, 0)?;
    traits::scalar_only_hw(ir, op, 1)
}

fn verify_broadcastable(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (src, dst) = split(ir, op)?;
    traits::same_rank(ir, op, ir.operands(op))?;
    traits::broadcastable_otf(ir, op, src, dst)
}

fn verify_transposable(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (src, dst) = split(ir, op)?;
    traits::same_rank(ir, op, ir.operands(op))?;
    traits::transposable_otf(ir, op, src, dst)
}

const fn structured(name: &'static str, verify: hivm_ir::dialect::VerifyFn) -> OpSpec {
    OpSpec {
        name,
        operands: STRUCTURED,
        results: RESULTS,
        segments: true,
        format: concat!(
            "attr-dict (`ins` `(` $src^ `:` type($src) `)`)? (`outs` `(` $dst^ `:` type($dst) `)`)? ",
            "(`->` type($result)^)?"
        ),
        verify: Some(verify),
        ..OpSpec::EMPTY
    }
}

const BROADCASTABLE: OpSpec = OpSpec {
    name: "bishengir_test.broadcastableOTF",
    operands: STRUCTURED,
    attrs: &[default_attr("broadcast", AttrKind::I64Array, "[]")],
    results: RESULTS,
    segments: true,
    format: concat!(
        "attr-dict (`ins` `(` $src^ `:` type($src) `)`)? (`outs` `(` $dst^ `:` type($dst) `)`)? ",
        "(`broadcast` `=` $broadcast^)? (`->` type($result)^)?"
    ),
    verify: Some(verify_broadcastable),
    ..OpSpec::EMPTY
};

const TRANSPOSABLE: OpSpec = OpSpec {
    name: "bishengir_test.transposableOTF",
    attrs: &[default_attr("transpose", AttrKind::I64Array, "[]")],
    format: concat!(
        "attr-dict (`ins` `(` $src^ `:` type($src) `)`)? (`outs` `(` $dst^ `:` type($dst) `)`)? ",
        "(`transpose` `=` $transpose^)? (`->` type($result)^)?"
    ),
    verify: Some(verify_transposable),
    ..BROADCASTABLE
};

/// An element-type constraint: its summary and its test.
type ElemConstraint = (&'static str, fn(&TypeData) -> bool);

const F16: ElemConstraint = ("16-bit float", |t| matches!(t, TypeData::Float(hivm_ir::types::FloatKind::F16)));
const F32: ElemConstraint = ("32-bit float", |t| matches!(t, TypeData::Float(hivm_ir::types::FloatKind::F32)));
const I8: ElemConstraint = ("8-bit signless integer", |t| t.is_signless_int(8));
const I32: ElemConstraint = ("32-bit signless integer", |t| t.is_signless_int(32));
const ANY_INT: ElemConstraint = ("integer", |t| matches!(t, TypeData::Integer { .. }));
const ANY_FLOAT: ElemConstraint = ("floating-point", |t| matches!(t, TypeData::Float(_)));

/// Upstream's `OperElemTypeConstraints`: operand `i`'s element type is one
/// of `allowed[i]`, checked in operand order.
fn check_elements(ir: &Ir, op: OpId, allowed: &[&[ElemConstraint]]) -> Result<(), VerifyError> {
    for (i, choices) in allowed.iter().enumerate() {
        let ok = ir.operands(op).get(i).is_some_and(|v| {
            let t: Type = element_or_self(ir, ir.value_type(*v));
            choices.iter().any(|(_, f)| f(ir.type_data(t)))
        });
        if !ok {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "failed to verify that operand at idx {i} should have element type {}",
                names.join(" or ")
            )
            .into());
        }
    }
    Ok(())
}

fn verify_element_types(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let allowed: &[&[ElemConstraint]] = match ir.op_name(op) {
        "bishengir_test.element_type_only_f16_i32" => &[&[F16], &[I32]],
        "bishengir_test.element_type_only_f16f32_i8i32" => &[&[F16, F32], &[I8, I32]],
        _ => &[&[ANY_INT], &[ANY_FLOAT]],
    };
    check_elements(ir, op, allowed)
}

const fn element_type_only(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: INPUTS,
        format: "attr-dict (`ins` `(` $input^ `:` type($input) `)`)?",
        verify: Some(verify_element_types),
        ..OpSpec::EMPTY
    }
}

pub fn dialect() -> Dialect {
    let specs = [
        structured("bishengir_test.elementwise_unary", verify_elementwise),
        structured("bishengir_test.elementwise_binary", verify_elementwise),
        structured("bishengir_test.elementwise_ternary", verify_elementwise),
        structured("bishengir_test.vector_scalar_only", verify_vector_scalar),
        BROADCASTABLE,
        TRANSPOSABLE,
        element_type_only("bishengir_test.element_type_only_f16_i32"),
        element_type_only("bishengir_test.element_type_only_f16f32_i8i32"),
        element_type_only("bishengir_test.element_type_only_int_float"),
    ];
    Dialect::new("bishengir_test", specs.map(|s| s.def()).to_vec())
}
