//! SCF's transform ops (`transform.loop.*`, `transform.scf.*`, MLIR's
//! `SCFTransformOps.td`).

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, ValueDef, attr, default_attr, one, opt_attr, var};
use hivm_ir::{Ir, OpId};

use super::Kind::{Handle, OpNamed};
use super::{TARGET, TOp};

const SCF_FOR: super::Kind = OpNamed("scf.for");
const TRANSFORMED_LOOPS: &[ValueDef] = &[var("transformed")];
const FACTOR: &[hivm_ir::opspec::AttrDef] = &[attr("factor", AttrKind::Int(64))];

/// `%target : (T) -> (R...)`.
const fn to_loops(name: &'static str) -> TOp {
    TOp::new(
        OpSpec {
            name,
            operands: TARGET,
            results: TRANSFORMED_LOOPS,
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    )
}

/// `%target {factor = N} : T`.
const fn unroll(name: &'static str) -> TOp {
    TOp::new(
        OpSpec {
            name,
            operands: TARGET,
            attrs: FACTOR,
            format: "$target attr-dict `:` type($target)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    )
    .check(verify_factor)
}

/// `ConfinedAttr<I64Attr, [IntPositive]>`.
fn verify_factor(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    match crate::util::int_attr(ir, op, "factor") {
        Some(n) if n <= 0 => Err(
            "attribute 'factor' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive"
                .into(),
        ),
        _ => Ok(()),
    }
}

pub(super) const SPECS: &[TOp] = &[
    to_loops("transform.loop.forall_to_for"),
    to_loops("transform.loop.forall_to_parallel"),
    to_loops("transform.loop.parallel_for_to_nested_fors"),
    TOp::new(
        OpSpec {
            name: "transform.loop.outline",
            operands: TARGET,
            attrs: &[attr("func_name", AttrKind::Str)],
            results: &[one("function"), one("call")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle, Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.loop.peel",
            operands: TARGET,
            attrs: &[
                default_attr("peel_front", AttrKind::Bool, "false"),
                default_attr("fail_if_already_divisible", AttrKind::Bool, "false"),
            ],
            results: &[one("peeled_loop"), one("remainder_loop")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[SCF_FOR],
        &[Handle, Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.loop.pipeline",
            operands: TARGET,
            attrs: &[
                default_attr("iteration_interval", AttrKind::Int(64), "1"),
                default_attr("read_latency", AttrKind::Int(64), "10"),
            ],
            results: &[one("transformed")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[SCF_FOR],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.loop.promote_if_one_iteration",
            operands: TARGET,
            format: "$target attr-dict `:` type($target)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    unroll("transform.loop.unroll"),
    unroll("transform.loop.unroll_and_jam"),
    TOp::new(
        OpSpec {
            name: "transform.loop.coalesce",
            operands: TARGET,
            results: &[one("transformed")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.scf.take_assumed_branch",
            operands: TARGET,
            attrs: &[opt_attr("take_else_branch", AttrKind::Unit)],
            format: "$target (`take_else_branch` $take_else_branch^)? attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.loop.fuse_sibling",
            operands: &[one("target"), one("source")],
            results: &[one("fused_loop")],
            format: "$target `into` $source attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle, Handle],
        &[Handle],
    ),
];
