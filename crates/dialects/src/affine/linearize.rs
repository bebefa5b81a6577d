//! `affine.delinearize_index` (one index into coordinates of a basis) and
//! `affine.linearize_index` (coordinates back into one index). The basis
//! mixes constants and SSA values (`(4, %n)`); the outermost bound may be
//! left out, in which case there is one more coordinate than basis entry.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, DYNAMIC_INDEX_LIST_PAREN, Fixed, OpSpec, attr, default_attr, one, var};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpDef, OpId, Traits};

use crate::util::i64_array;

const DELINEARIZE: OpSpec = OpSpec {
    name: "affine.delinearize_index",
    operands: &[one("linear_index").of(Fixed::Index), var("dynamic_basis").of(Fixed::Index)],
    attrs: &[attr("static_basis", AttrKind::I64Array)],
    results: &[var("multi_index").of(Fixed::Index)],
    format: "$linear_index `into` custom<DynamicIndexListParen>($dynamic_basis, $static_basis) attr-dict `:` \
             type($multi_index)",
    customs: &[DYNAMIC_INDEX_LIST_PAREN],
    traits: Traits::PURE,
    verify: Some(verify_delinearize),
    ..OpSpec::EMPTY
};

const LINEARIZE: OpSpec = OpSpec {
    name: "affine.linearize_index",
    operands: &[var("multi_index").of(Fixed::Index), var("dynamic_basis").of(Fixed::Index)],
    attrs: &[attr("static_basis", AttrKind::I64Array), default_attr("disjoint", AttrKind::UnitProp, "false")],
    results: &[one("linear_index").of(Fixed::Index)],
    segments: true,
    format: "(`disjoint` $disjoint^)? ` ` `[` $multi_index `]` `by` custom<DynamicIndexListParen>($dynamic_basis, \
             $static_basis) attr-dict `:` type($linear_index)",
    customs: &[DYNAMIC_INDEX_LIST_PAREN],
    traits: Traits::PURE,
    verify: Some(verify_linearize),
    ..OpSpec::EMPTY
};

/// One dynamic basis value per `?` of the static basis.
fn check_dynamic_count(basis: &[i64], dynamic: usize) -> Result<(), VerifyError> {
    if basis.iter().filter(|b| **b == DYNAMIC).count() != dynamic {
        return Err("mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis \
                    entry) -- this can only happen due to an incorrect fold/rewrite"
            .into());
    }
    Ok(())
}

fn verify_delinearize(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let basis = i64_array(ir, op, "static_basis");
    let results = ir.results(op).len();
    if results != basis.len() && results != basis.len() + 1 {
        return Err("should return an index for each basis element and up to one extra index".into());
    }
    check_dynamic_count(&basis, ir.operands(op).len() - 1)?;
    if basis.iter().any(|b| *b != DYNAMIC && *b <= 0) {
        return Err("no basis element may be statically non-positive".into());
    }
    Ok(())
}

fn verify_linearize(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let basis = i64_array(ir, op, "static_basis");
    let sizes = hivm_ir::opspec::segment_sizes(ir, op);
    let (indices, dynamic) = (sizes.first().copied().unwrap_or(0), sizes.get(1).copied().unwrap_or(0));
    if indices != basis.len() && indices != basis.len() + 1 {
        return Err("should be passed a basis element for each index except possibly the first".into());
    }
    check_dynamic_count(&basis, dynamic)
}

pub(super) fn defs() -> Vec<OpDef> {
    [DELINEARIZE, LINEARIZE].map(OpSpec::def).to_vec()
}
