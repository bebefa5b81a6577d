//! The reductions: `vector.reduction` (1-D into a scalar), `vector.multi_reduction`
//! (over chosen dimensions) and `vector.scan` (prefix reductions along one
//! dimension, with the final accumulator as a second result).

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, attr, default_attr, one, opt};
use hivm_ir::{Ir, OpDef, OpId, Traits, TypeData};

use super::{FASTMATH, KIND};
use crate::util::{opaque_arg, type_str};

const MULTI_REDUCTION: OpSpec = OpSpec {
    name: "vector.multi_reduction",
    operands: &[one("source"), one("acc").like("dest")],
    attrs: &[attr("kind", KIND), attr("reduction_dims", AttrKind::I64Array)],
    results: &[one("dest")],
    format: "$kind `,` $source `,` $acc attr-dict $reduction_dims `:` type($source) `to` type($dest)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const REDUCTION: OpSpec = OpSpec {
    name: "vector.reduction",
    operands: &[one("vector"), opt("acc").like("dest")],
    attrs: &[attr("kind", KIND), default_attr("fastmath", FASTMATH, "none")],
    results: &[one("dest")],
    format: "$kind `,` $vector (`,` $acc^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($vector) `into` type($dest)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const SCAN: OpSpec = OpSpec {
    name: "vector.scan",
    operands: &[one("source"), one("initial_value")],
    attrs: &[attr("kind", KIND), attr("reduction_dim", AttrKind::Int(64)), attr("inclusive", AttrKind::Bool)],
    results: &[one("dest").like("source"), one("accumulated_value").like("initial_value")],
    format: "$kind `,` $source `,` $initial_value attr-dict `:` type($source) `,` type($initial_value)",
    traits: Traits::PURE,
    verify: Some(verify_scan),
    ..OpSpec::EMPTY
};

fn verify_scan(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (src, init) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let TypeData::Vector { shape, elem, .. } = ir.type_data(src).clone() else {
        let t = type_str(ir, src);
        return Err(format!("operand #0 must be vector of any type values of non-zero rank, but got '{t}'").into());
    };
    if shape.is_empty() {
        let t = type_str(ir, src);
        return Err(format!("operand #0 must be vector of any type values of non-zero rank, but got '{t}'").into());
    }
    let TypeData::Vector { shape: init_shape, .. } = ir.type_data(init).clone() else {
        let t = type_str(ir, init);
        return Err(format!("operand #1 must be vector of any type values, but got '{t}'").into());
    };
    let dim = ir.get_attr(op, "reduction_dim").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
    let rank = shape.len() as i64;
    if dim >= rank {
        return Err(format!("reduction dimension {dim} has to be less than {rank}").into());
    }
    if init_shape.len() as i64 != rank - 1 {
        return Err(format!("initial value rank {} has to be equal to {}", init_shape.len(), rank - 1).into());
    }
    let expected: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| *i as i64 != dim).map(|(_, d)| *d).collect();
    if init_shape != expected {
        return Err("incompatible input/initial value shapes".into());
    }
    let kind = ir.get_attr(op, "kind").and_then(|a| opaque_arg(ir, a, "kind")).unwrap_or("add");
    if !super::contract::kind_supported(ir, kind, elem) {
        return Err(format!("unsupported reduction type '{}' for kind '{kind}'", type_str(ir, elem)).into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut d: Vec<OpDef> = [MULTI_REDUCTION, REDUCTION].map(OpSpec::def).to_vec();
    d.push(SCAN.def().names(hivm_ir::opspec::name_results_after_defs));
    d
}
