//! Masked arithmetic on vectors: the unary and binary elementwise ops, the
//! vector-scalar forms (`vadds`, `vshls`, ...), shifts, the widening
//! multiply `mull`, multiply-accumulate `vmula`, comparisons and the
//! horizontal `reduction`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{Fixed, OpSpec, ValueDef, attr, default_attr, one};
use hivm_ir::{Ir, OpId, Traits, TypeData};

use super::{CMP_TYPE, COMBINING_KIND, MASK};
use crate::hivm::attrs::kinds::CAST;

const UNARY_OPERANDS: &[ValueDef] = &[one("src"), MASK];
const UNARY_RES: &[ValueDef] = &[one("res").like("src")];
const BINARY_OPERANDS: &[ValueDef] = &[one("lhs"), one("rhs").like("lhs"), MASK];
const BINARY_RES: &[ValueDef] = &[one("out").like("lhs")];
const SCALAR_OPERANDS: &[ValueDef] = &[one("vec"), one("scalar"), MASK];
const SHIFT_SCALAR_OPERANDS: &[ValueDef] = &[one("vec"), one("scalar"), MASK, one("sign").of(Fixed::Int(1))];
const SCALAR_RES: &[ValueDef] = &[one("out").like("vec")];
const SHIFT_OPERANDS: &[ValueDef] = &[one("lhs"), one("rhs").like("lhs"), MASK, one("sign").of(Fixed::Int(1))];

const fn unary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: UNARY_OPERANDS,
        results: UNARY_RES,
        format: "$src `,` $mask attr-dict `:` type($src) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn binary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: BINARY_OPERANDS,
        results: BINARY_RES,
        format: "$lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

/// `TypesMatchWith`: the scalar is the vector's element type.
fn verify_scalar(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (vec, scalar) = (ir.value_type(ir.operands(op)[0]), ir.value_type(ir.operands(op)[1]));
    if let TypeData::Vector { elem, .. } = ir.type_data(vec)
        && *elem != scalar
    {
        return Err("failed to verify that the scalar should have the same type with the vector's element type".into());
    }
    Ok(())
}

const fn vec_scalar(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: SCALAR_OPERANDS,
        results: SCALAR_RES,
        format: "$vec `,` $scalar `,` $mask attr-dict `:` type($vec) `,` type($scalar) `,` type($mask)",
        traits: Traits::PURE,
        verify: Some(verify_scalar),
        ..OpSpec::EMPTY
    }
}

const fn shift_scalar(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: SHIFT_SCALAR_OPERANDS,
        results: SCALAR_RES,
        format: "$vec `,` $scalar `,` $mask `,` $sign attr-dict `:` type($vec) `,` type($scalar) `,` type($mask)",
        traits: Traits::PURE,
        verify: Some(verify_scalar),
        ..OpSpec::EMPTY
    }
}

const fn shift(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: SHIFT_OPERANDS,
        results: BINARY_RES,
        format: "$lhs `,` $rhs `,` $mask `,` $sign attr-dict `:` type($lhs) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

/// HIVM's `TypeFn` (`#hivm.cast<...>`), signed unless said otherwise.
const CAST_SIGNED: hivm_ir::opspec::AttrDef = default_attr("cast", CAST, "cast_signed");

pub(super) const SPECS: &[OpSpec] = &[
    unary("ave.hir.vabs"),
    unary("ave.hir.vneg"),
    unary("ave.hir.vnot"),
    unary("ave.hir.vexp"),
    unary("ave.hir.vsqrt"),
    unary("ave.hir.vrsqrt"),
    unary("ave.hir.vln"),
    unary("ave.hir.vrelu"),
    binary("ave.hir.vadd"),
    binary("ave.hir.vmul"),
    binary("ave.hir.vsub"),
    OpSpec { attrs: &[CAST_SIGNED], ..binary("ave.hir.vdiv") },
    binary("ave.hir.vdivf"),
    binary("ave.hir.vmax"),
    binary("ave.hir.vmin"),
    binary("ave.hir.vsmax"),
    binary("ave.hir.vsmin"),
    binary("ave.hir.vumax"),
    binary("ave.hir.vumin"),
    binary("ave.hir.vdivfhp"),
    binary("ave.hir.vmod"),
    binary("ave.hir.vmodui"),
    binary("ave.hir.vabs_diff"),
    binary("ave.hir.vsadd"),
    binary("ave.hir.vssub"),
    binary("ave.hir.vrnd"),
    binary("ave.hir.vprelu"),
    binary("ave.hir.vand"),
    binary("ave.hir.vor"),
    binary("ave.hir.vxor"),
    binary("ave.hir.vexpdif"),
    vec_scalar("ave.hir.vadds"),
    vec_scalar("ave.hir.vmuls"),
    vec_scalar("ave.hir.vlrelus"),
    vec_scalar("ave.hir.vmaxs"),
    vec_scalar("ave.hir.vmins"),
    vec_scalar("ave.hir.vsmaxs"),
    vec_scalar("ave.hir.vsmins"),
    vec_scalar("ave.hir.vumaxs"),
    vec_scalar("ave.hir.vumins"),
    shift_scalar("ave.hir.vshls"),
    shift_scalar("ave.hir.vshrs"),
    shift("ave.hir.vshl"),
    shift("ave.hir.vshr"),
    OpSpec {
        name: "ave.hir.mull",
        operands: &[one("src1"), one("src2").like("src1"), MASK],
        attrs: &[CAST_SIGNED],
        results: &[one("res1").like("src1"), one("res2").like("src1")],
        format: "$src1 `,` $src2 `,` $mask attr-dict `:` type($src1) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vmula",
        operands: &[one("src1"), one("src2").like("src1"), one("src3").like("src1"), MASK],
        results: &[one("out").like("src1")],
        format: "$src1 `,` $src2 `,` $src3 `,` $mask attr-dict `:` type($src1) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vcmp",
        operands: &[one("lhs"), one("rhs").like("lhs"), MASK],
        attrs: &[attr("cmp", CMP_TYPE)],
        results: &[one("res")],
        format: "$cmp $lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($mask) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vcmps",
        operands: &[one("vec"), one("scalar"), MASK],
        attrs: &[attr("cmp", CMP_TYPE)],
        results: &[one("res")],
        format: concat!(
            "$cmp $vec `,` $scalar `,` $mask attr-dict `:` ",
            "type($vec) `,` type($scalar) `,` type($mask) `->` type($res)"
        ),
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.reduction",
        operands: &[one("vector"), MASK],
        attrs: &[attr("kind", COMBINING_KIND)],
        results: &[one("result")],
        format: "$kind `,` $vector `,` $mask attr-dict `:` type($vector) `,` type($mask) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_reduction),
        ..OpSpec::EMPTY
    },
];

/// The result has the source's element type and shape.
fn verify_reduction(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let src = ir.value_type(ir.operands(op)[0]);
    let res = ir.value_type(ir.result(op, 0));
    if ir.type_data(src).element_type() != ir.type_data(res).element_type() {
        return Err("failed to verify that source operand vector and result have same element type".into());
    }
    if ir.type_data(src).shape() != ir.type_data(res).shape() {
        return Err("failed to verify that all of {vector, result} have same shape".into());
    }
    Ok(())
}
