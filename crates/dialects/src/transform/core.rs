//! The transform dialect's own ops with declarative syntax (MLIR's
//! `TransformOps.td`), its debug extension (`debug.*`), its loop extension
//! and the test op `test_consume_operand` that MLIR's test extension adds.

use hivm_ir::Traits;
use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, attr, default_attr, one, opt, opt_attr, var};
use hivm_ir::{Ir, OpId};

use super::Kind::{Any, AnyHandle, Handle, Param, Value};
use super::customs::{APPLY_REGISTERED_PASS_OPTIONS, TRANSFORM_MATCH_DIMS};
use super::{FAILURE_PROPAGATION_KIND, RESULT, TARGET, TOp};

const POSITION_ATTRS: &[hivm_ir::opspec::AttrDef] = &[
    attr("raw_position_list", AttrKind::I64Array),
    opt_attr("is_inverted", AttrKind::Unit),
    opt_attr("is_all", AttrKind::Unit),
];

/// `to %target : type`: ops that only read or modify what `target` holds.
const fn to_target(name: &'static str) -> TOp {
    TOp::new(
        OpSpec { name, operands: TARGET, format: "`to` $target attr-dict `:` type($target)", ..OpSpec::EMPTY },
        &[Handle],
        &[],
    )
}

/// `%target : type`.
const fn on_target(name: &'static str) -> TOp {
    TOp::new(
        OpSpec { name, operands: TARGET, format: "$target attr-dict `:` type($target)", ..OpSpec::EMPTY },
        &[Handle],
        &[],
    )
}

/// `%target[...] : (T) -> R`, by position (`TransformMatchDims`).
const fn positional(name: &'static str) -> TOp {
    TOp::new(
        OpSpec {
            name,
            operands: TARGET,
            attrs: POSITION_ATTRS,
            results: RESULT,
            format: "$target `[` custom<TransformMatchDims>($raw_position_list, $is_inverted, $is_all) `]` attr-dict `:` functional-type(operands, results)",
            customs: &[TRANSFORM_MATCH_DIMS],
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Value],
    )
    .check(verify_match_dims)
}

/// MLIR's `verifyTransformMatchDimsOp`.
pub(super) fn verify_match_dims(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let list = crate::util::i64_array(ir, op, "raw_position_list");
    let inverted = ir.get_attr(op, "is_inverted").is_some();
    if ir.get_attr(op, "is_all").is_some() {
        if inverted {
            return Err("cannot request both 'all' and 'inverted' values in the list".into());
        }
        if !list.is_empty() {
            return Err("cannot both request 'all' and specific values in the list".into());
        }
    }
    if list.is_empty() && ir.get_attr(op, "is_all").is_none() {
        return Err("must request specific values in the list if 'all' is not specified".into());
    }
    let mut seen = std::collections::HashSet::new();
    for v in &list {
        if !seen.insert(*v) {
            return Err("expected the listed values to be unique".into());
        }
    }
    Ok(())
}

/// `apply_patterns`' region holds pattern descriptors only.
fn verify_apply_patterns(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&region) = ir.regions(op).first() else { return Ok(()) };
    for &b in ir.region_blocks(region) {
        for child in ir.block_ops(b) {
            if !super::patterns::is_pattern_descriptor(ir.op_name(child)) {
                return Err("expected children ops to implement PatternDescriptorOpInterface".into());
            }
        }
    }
    Ok(())
}

/// `overflow_result` names one of the results.
fn verify_split_handle(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if let Some(i) = crate::util::int_attr(ir, op, "overflow_result")
        && (i < 0 || i as usize >= ir.results(op).len())
    {
        return Err("overflow_result is not a valid result index".into());
    }
    Ok(())
}

pub(super) const SPECS: &[TOp] = &[
    TOp::new(
        OpSpec {
            name: "transform.annotate",
            operands: &[one("target"), opt("param")],
            attrs: &[attr("name", AttrKind::Str)],
            format: "$target $name attr-dict (`=` $param^)? `:` type($target) (`,` type($param)^)?",
            ..OpSpec::EMPTY
        },
        &[Handle, Param],
        &[],
    ),
    to_target("transform.apply_cse"),
    to_target("transform.apply_dce"),
    to_target("transform.apply_licm"),
    TOp::new(
        OpSpec {
            name: "transform.apply_patterns",
            operands: TARGET,
            attrs: &[
                opt_attr("apply_cse", AttrKind::Unit),
                default_attr("max_iterations", AttrKind::Int(64), "-1"),
                default_attr("max_num_rewrites", AttrKind::Int(64), "-1"),
                // AscendNPU-IR's patch: patterns left out by name.
                opt_attr("disable_patterns", AttrKind::Array),
            ],
            regions: &["patterns"],
            format: "`to` $target $patterns attr-dict `:` type($target)",
            traits: Traits::NO_TERMINATOR.with(Traits::SINGLE_BLOCK).with(Traits::GRAPH_REGION),
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    )
    .check(verify_apply_patterns),
    TOp::new(
        OpSpec {
            name: "transform.apply_registered_pass",
            operands: &[one("target"), var("dynamic_options")],
            attrs: &[attr("pass_name", AttrKind::Str), default_attr("options", AttrKind::Any, "{}")],
            results: &[one("result")],
            format: "$pass_name (`with` `options` `=` custom<ApplyRegisteredPassOptions>($options, $dynamic_options)^)? `to` $target attr-dict `:` functional-type(operands, results)",
            customs: &[APPLY_REGISTERED_PASS_OPTIONS],
            ..OpSpec::EMPTY
        },
        &[Handle, Param],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.cast",
            operands: &[one("input")],
            results: &[one("output")],
            format: "$input attr-dict `:` type($input) `to` type($output)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.get_consumers_of_result",
            operands: TARGET,
            attrs: &[attr("result_number", AttrKind::Int(64))],
            results: &[one("consumers")],
            format: "$target `[` $result_number `]` attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.get_defining_op",
            operands: TARGET,
            results: &[one("result")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Value],
        &[Handle],
    ),
    positional("transform.get_operand"),
    TOp::new(
        OpSpec {
            name: "transform.get_parent_op",
            operands: TARGET,
            attrs: &[
                opt_attr("isolated_from_above", AttrKind::Unit),
                opt_attr("allow_empty_results", AttrKind::Unit),
                opt_attr("op_name", AttrKind::Str),
                opt_attr("deduplicate", AttrKind::Unit),
                default_attr("nth_parent", AttrKind::Int(64), "1"),
            ],
            results: &[one("parent")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    )
    .check(verify_nth_parent),
    TOp::new(
        OpSpec {
            name: "transform.get_producer_of_operand",
            operands: TARGET,
            attrs: &[attr("operand_number", AttrKind::Int(64))],
            results: &[one("producer")],
            format: "$target `[` $operand_number `]` attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    positional("transform.get_result"),
    TOp::new(
        OpSpec {
            name: "transform.get_type",
            operands: &[one("value")],
            attrs: &[opt_attr("elemental", AttrKind::Unit)],
            results: &[one("type_param")],
            format: "(`elemental` $elemental^)? $value attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Value],
        &[Param],
    ),
    TOp::new(
        OpSpec {
            name: "transform.include",
            operands: &[var("operands")],
            attrs: &[
                attr("target", AttrKind::Any),
                attr("failure_propagation_mode", FAILURE_PROPAGATION_KIND),
                opt_attr("arg_attrs", AttrKind::Array),
                opt_attr("res_attrs", AttrKind::Array),
            ],
            results: &[var("results")],
            format: "$target `failures` `(` $failure_propagation_mode `)` `(` $operands `)` attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Any],
        &[Any],
    )
    .check(verify_symbol_ref_target),
    TOp::new(
        OpSpec {
            name: "transform.match.operation_name",
            operands: &[one("operand_handle")],
            attrs: &[attr("op_names", AttrKind::Array)],
            format: "$operand_handle $op_names attr-dict `:` type($operand_handle)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.merge_handles",
            operands: &[var("handles").like("result")],
            attrs: &[opt_attr("deduplicate", AttrKind::Unit)],
            results: &[one("result")],
            format: "(`deduplicate` $deduplicate^)? $handles attr-dict `:` type($result)",
            traits: Traits::SAME_OPERANDS_AND_RESULT_TYPE,
            ..OpSpec::EMPTY
        },
        &[Any],
        &[Any],
    ),
    TOp::new(
        OpSpec {
            name: "transform.num_associations",
            operands: &[one("handle")],
            results: &[one("num")],
            format: "$handle attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Any],
        &[Param],
    ),
    TOp::new(
        OpSpec {
            name: "transform.param.constant",
            attrs: &[attr("value", AttrKind::Any)],
            results: &[one("param")],
            format: "$value attr-dict `->` type($param)",
            ..OpSpec::EMPTY
        },
        &[],
        &[Param],
    ),
    TOp::new(
        OpSpec {
            name: "transform.print",
            operands: &[opt("target")],
            attrs: &[
                opt_attr("name", AttrKind::Str),
                opt_attr("assume_verified", AttrKind::Unit),
                opt_attr("use_local_scope", AttrKind::Unit),
                opt_attr("skip_regions", AttrKind::Unit),
            ],
            format: "$target attr-dict (`:` type($target)^)?",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.select",
            operands: TARGET,
            attrs: &[attr("op_name", AttrKind::Str)],
            results: &[one("result")],
            format: "$op_name `in` $target attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.split_handle",
            operands: &[one("handle")],
            attrs: &[
                default_attr("pass_through_empty_handle", AttrKind::Bool, "true"),
                default_attr("fail_on_payload_too_small", AttrKind::Bool, "true"),
                opt_attr("overflow_result", AttrKind::Int(64)),
            ],
            results: &[var("results")],
            format: "$handle attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Any],
        &[Any],
    )
    .check(verify_split_handle),
    on_target("transform.verify"),
    TOp::new(
        OpSpec {
            name: "transform.yield",
            operands: &[var("operands")],
            format: "$operands attr-dict (`:` type($operands)^)?",
            traits: Traits::TERMINATOR,
            ..OpSpec::EMPTY
        },
        &[Any],
        &[],
    ),
    // The debug extension.
    TOp::new(
        OpSpec {
            name: "transform.debug.emit_remark_at",
            operands: &[one("at")],
            attrs: &[attr("message", AttrKind::Str)],
            format: "$at `,` $message attr-dict `:` type($at)",
            ..OpSpec::EMPTY
        },
        &[AnyHandle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.debug.emit_param_as_remark",
            operands: &[one("param"), opt("anchor")],
            attrs: &[opt_attr("message", AttrKind::Str)],
            format: "$param (`,` $message^)? (`at` $anchor^)? attr-dict `:` type($param) (`,` type($anchor)^)?",
            ..OpSpec::EMPTY
        },
        &[Param, Handle],
        &[],
    ),
    // The loop extension.
    on_target("transform.loop.hoist_loop_invariant_subsets"),
    // MLIR's test extension, which mlir-opt registers.
    TOp::new(
        OpSpec {
            name: "transform.test_consume_operand",
            operands: &[one("operand"), opt("second_operand")],
            attrs: &[opt_attr("allow_repeated_handles", AttrKind::Unit)],
            format: "$operand (`,` $second_operand^)? attr-dict `:` type($operand) (`,` type($second_operand)^)?",
            ..OpSpec::EMPTY
        },
        &[Any, Handle],
        &[],
    ),
];

/// `nth_parent` is positive (`ConfinedAttr<I64Attr, [IntPositive]>`).
fn verify_nth_parent(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    match crate::util::int_attr(ir, op, "nth_parent") {
        Some(n) if n <= 0 => Err(
            "attribute 'nth_parent' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive"
                .into(),
        ),
        _ => Ok(()),
    }
}

/// `include`'s target is a symbol reference to a `named_sequence`.
fn verify_symbol_ref_target(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(hivm_ir::attrs::AttrData::SymbolRef { root, nested }) = ir.get_attr(op, "target").map(|a| ir.attr_data(a))
    else {
        return Err("attribute 'target' failed to satisfy constraint: symbol reference attribute".into());
    };
    let found = nested
        .is_empty()
        .then(|| hivm_ir::builder::lookup_symbol_from(ir, op, ir.sym_str(*root)))
        .flatten()
        .filter(|s| ir.is_op(*s, "transform.named_sequence"));
    if found.is_none() {
        return Err("does not reference a named transform sequence".into());
    }
    Ok(())
}
