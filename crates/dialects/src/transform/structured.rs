//! Linalg's transform ops (`transform.structured.*`, MLIR's
//! `LinalgTransformOps.td`), with AscendNPU-IR's patches where its tests
//! rely on them: `match` takes `optional_attributes`, `tile_using_for` takes
//! value handles as sizes, `tile_reduction_using_for` takes dynamic sizes,
//! and `fuse` is LLVM 19's (sizes as array attributes).

use hivm_ir::attrs::AttrData;
use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{
    AttrDef, AttrKind, IntEnumKind, OpSpec, ValueDef, default_attr, one, opt, opt_attr, optional_default_attr, var,
};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId};

use super::Kind::{Any, Handle, ParamOrHandle};
use super::customs::{DYNAMIC_INDEX_LIST, PACKED_OR_DYNAMIC_INDEX_LIST, SEMI_FUNCTION_TYPE};
use super::{RESULT, TARGET, TOp, TRANSFORMED};

/// `MatchInterfaceEnum`.
pub(super) const MATCH_INTERFACE: AttrKind = AttrKind::IntEnum(IntEnumKind {
    cases: &[("LinalgOp", 0), ("TilingInterface", 1), ("LoopLikeInterface", 2)],
    width: 32,
    summary: "An interface to match",
});

/// The filters `structured.match` and AscendNPU-IR's
/// `structured.match.ancestor_of` share.
pub(super) const MATCH_ATTRS: &[AttrDef] = &[
    opt_attr("ops", AttrKind::Array),
    opt_attr("interface", MATCH_INTERFACE),
    opt_attr("op_attrs", AttrKind::Any),
    opt_attr("optional_op_attrs", AttrKind::Any),
    opt_attr("filter_result_type", AttrKind::TypeAttr),
    opt_attr("filter_operand_types", AttrKind::Array),
];

/// The filters' syntax, before `in %target`.
macro_rules! match_filters {
    () => {
        "(`ops` `{` $ops^ `}`)? (`interface` `{` $interface^ `}`)? (`attributes` $op_attrs^)? \
         (`optional_attributes` $optional_op_attrs^)? (`filter_result_type` `=` $filter_result_type^)? \
         (`filter_operand_types` `=` $filter_operand_types^)?"
    };
}
pub(super) use match_filters;

/// The filters' attribute kinds beyond what the format checks.
pub(super) fn verify_match_filters(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let is = |name: &str, f: &dyn Fn(&AttrData) -> bool| ir.get_attr(op, name).is_none_or(|a| f(ir.attr_data(a)));
    let strings = |d: &AttrData| matches!(d, AttrData::Array(items) if items.iter().all(|a| matches!(ir.attr_data(*a), AttrData::String { .. })));
    let types = |d: &AttrData| matches!(d, AttrData::Array(items) if items.iter().all(|a| matches!(ir.attr_data(*a), AttrData::Type(_))));
    let dict = |d: &AttrData| matches!(d, AttrData::Dictionary(_));
    if !is("ops", &strings) {
        return Err("attribute 'ops' failed to satisfy constraint: string array attribute".into());
    }
    for name in ["op_attrs", "optional_op_attrs"] {
        if !is(name, &dict) {
            return Err(format!(
                "attribute '{name}' failed to satisfy constraint: dictionary of named attribute values"
            )
            .into());
        }
    }
    if !is("filter_operand_types", &types) {
        return Err("attribute 'filter_operand_types' failed to satisfy constraint: type array attribute".into());
    }
    Ok(())
}

/// The number of sizes that are not zero: one loop each.
fn nonzero(sizes: &[i64]) -> usize {
    sizes.iter().filter(|s| **s != 0).count()
}

/// `DYNAMIC` entries and dynamic values agree.
fn check_dynamic(ir: &Ir, op: OpId, group: usize, name: &str) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let dynamic = crate::util::i64_array(ir, op, name).iter().filter(|v| **v == DYNAMIC).count();
    let have = c.operand_group(ir, op, group).len();
    if dynamic != have {
        return Err(format!("expected {dynamic} dynamic values for the '?' entries of '{name}', but got {have}").into());
    }
    Ok(())
}

fn bools(ir: &Ir, op: OpId, name: &str) -> Option<usize> {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.len()),
        _ => None,
    }
}

fn verify_tile_using_for(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_dynamic(ir, op, 1, "static_sizes")?;
    let sizes = crate::util::i64_array(ir, op, "static_sizes");
    let scalable = bools(ir, op, "scalable_sizes").unwrap_or(0);
    if sizes.len() != scalable {
        return Err(format!("expected same number of sizes ({}) and scalable sizes ({scalable})", sizes.len()).into());
    }
    let loops = ir.results(op).len().saturating_sub(1);
    if loops != nonzero(&sizes) {
        return Err(format!(
            "expected number of loops to tile ({}) to match number of `loops` results ({loops})",
            nonzero(&sizes)
        )
        .into());
    }
    Ok(())
}

fn verify_tile_using_forall(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_dynamic(ir, op, 1, "static_num_threads")?;
    check_dynamic(ir, op, 2, "static_tile_sizes")?;
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let given = |group: usize, name: &str| {
        !c.operand_group(ir, op, group).is_empty() || !crate::util::i64_array(ir, op, name).is_empty()
    };
    let threads = usize::from(given(1, "static_num_threads")) + usize::from(!c.operand_group(ir, op, 3).is_empty());
    let tiles = usize::from(given(2, "static_tile_sizes")) + usize::from(!c.operand_group(ir, op, 4).is_empty());
    if threads > 1 {
        return Err("num_threads and packed_num_threads are mutually exclusive".into());
    }
    if tiles > 1 {
        return Err("tile_sizes and packed_tile_sizes are mutually exclusive".into());
    }
    if threads == 0 && tiles == 0 {
        return Err("either (packed_)num_threads or (packed_)tile_sizes must be specified".into());
    }
    Ok(())
}

fn verify_vectorize(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_dynamic(ir, op, 1, "static_vector_sizes")?;
    let sizes = crate::util::i64_array(ir, op, "static_vector_sizes").len();
    let scalable = bools(ir, op, "scalable_sizes").unwrap_or(0);
    if sizes != scalable {
        return Err(format!("expected same number of vector sizes ({sizes}) and scalable sizes ({scalable})").into());
    }
    Ok(())
}

/// LLVM 19's `FuseOp::verify`.
fn verify_fuse(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ints = |name: &str| -> Vec<i64> {
        match ir.get_attr(op, name).and_then(|a| ir.as_array(a)) {
            Some(items) => items
                .iter()
                .filter_map(|a| match ir.attr_data(*a) {
                    AttrData::Integer { value, .. } => Some(*value as i64),
                    _ => None,
                })
                .collect(),
            None => Vec::new(),
        }
    };
    let interchange = ints("tile_interchange");
    let mut sorted = interchange.clone();
    sorted.sort_unstable();
    if sorted.iter().enumerate().any(|(i, v)| *v != i as i64) {
        let text =
            ir.get_attr(op, "tile_interchange").map(|a| hivm_ir::printer::attr_to_string(ir, a)).unwrap_or_default();
        return Err(format!("expects interchange to be a permutation, found {text}").into());
    }
    let expected = nonzero(&ints("tile_sizes"));
    if expected != ir.results(op).len().saturating_sub(1) {
        return Err(format!("expects {expected} loop results").into());
    }
    Ok(())
}

fn verify_interchange(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let perm = crate::util::i64_array(ir, op, "iterator_interchange");
    if perm.iter().any(|v| *v < 0) {
        return Err("attribute 'iterator_interchange' failed to satisfy constraint: i64 dense array attribute whose value is non-negative".into());
    }
    let mut sorted = perm.clone();
    sorted.sort_unstable();
    if sorted.iter().enumerate().any(|(i, v)| *v != i as i64) {
        let list: Vec<String> = perm.iter().map(i64::to_string).collect();
        return Err(format!("expects iterator_interchange to be a permutation, found {}", list.join(", ")).into());
    }
    Ok(())
}

/// `%target : (T) -> R`.
const fn functional(name: &'static str, results: &'static [ValueDef]) -> TOp {
    TOp::new(
        OpSpec { name, operands: TARGET, results, format: super::TARGET_FUNCTIONAL, ..OpSpec::EMPTY },
        &[Handle],
        &[Handle],
    )
}

/// `%target : (T) -> R` written as a `SemiFunctionType`.
const fn semi_functional(name: &'static str) -> TOp {
    TOp::new(
        OpSpec {
            name,
            operands: TARGET,
            results: TRANSFORMED,
            format: "$target attr-dict `:` custom<SemiFunctionType>($target, $transformed)",
            customs: &[SEMI_FUNCTION_TYPE],
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    )
}

const STATIC_SIZES: AttrDef = optional_default_attr("static_sizes", AttrKind::I64Array, "[]");

pub(super) const SPECS: &[TOp] = &[
    TOp::new(
        OpSpec {
            name: "transform.structured.match",
            operands: TARGET,
            attrs: MATCH_ATTRS,
            results: &[one("results")],
            format: concat!(match_filters!(), " `in` $target attr-dict `:` functional-type(operands, results)"),
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    )
    .check(verify_match_filters),
    TOp::new(
        OpSpec {
            name: "transform.structured.tile_using_for",
            operands: &[one("target"), var("dynamic_sizes")],
            attrs: &[
                STATIC_SIZES,
                optional_default_attr("interchange", AttrKind::I64Array, "[]"),
                opt_attr("scalable_sizes", AttrKind::Any),
            ],
            results: &[one("tiled_linalg_op"), var("loops")],
            format: "$target `tile_sizes` custom<DynamicIndexList>($dynamic_sizes, $static_sizes, $scalable_sizes) (`interchange` `=` $interchange^)? attr-dict `:` functional-type(operands, results)",
            customs: &[DYNAMIC_INDEX_LIST],
            ..OpSpec::EMPTY
        },
        // AscendNPU-IR's patch takes value handles as sizes too.
        &[Handle, Any],
        &[Handle, Handle],
    )
    .check(verify_tile_using_for),
    TOp::new(
        OpSpec {
            name: "transform.structured.tile_using_forall",
            operands: &[one("target"), var("num_threads"), var("tile_sizes"), opt("packed_num_threads"), opt("packed_tile_sizes")],
            attrs: &[
                optional_default_attr("static_num_threads", AttrKind::I64Array, "[]"),
                optional_default_attr("static_tile_sizes", AttrKind::I64Array, "[]"),
                opt_attr("mapping", AttrKind::Array),
            ],
            results: &[one("tiled_op"), one("forall_op")],
            segments: true,
            format: "$target oilist(`num_threads` custom<PackedOrDynamicIndexList>($packed_num_threads, $num_threads, $static_num_threads) | `tile_sizes` custom<PackedOrDynamicIndexList>($packed_tile_sizes, $tile_sizes, $static_tile_sizes)) (`(` `mapping` `=` $mapping^ `)`)? attr-dict `:` functional-type(operands, results)",
            customs: &[PACKED_OR_DYNAMIC_INDEX_LIST],
            ..OpSpec::EMPTY
        },
        &[Handle, ParamOrHandle, ParamOrHandle, ParamOrHandle, ParamOrHandle],
        &[Handle, Handle],
    )
    .check(verify_tile_using_forall),
    TOp::new(
        OpSpec {
            name: "transform.structured.fuse_into_containing_op",
            operands: &[one("producer_op"), one("containing_op")],
            results: &[one("fused_op"), one("new_containing_op")],
            format: "$producer_op `into` $containing_op attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle, Handle],
        &[Handle, Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.structured.fuse",
            operands: TARGET,
            attrs: &[
                default_attr("tile_sizes", AttrKind::Array, "[]"),
                default_attr("tile_interchange", AttrKind::Array, "[]"),
            ],
            results: &[one("transformed"), var("loops")],
            format: "$target ($tile_sizes^)? (`interchange` $tile_interchange^)? attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle, Handle],
    )
    .check(verify_fuse),
    TOp::new(
        OpSpec {
            name: "transform.structured.vectorize",
            operands: &[one("target"), var("vector_sizes")],
            attrs: &[
                optional_default_attr("static_vector_sizes", AttrKind::I64Array, "[]"),
                opt_attr("vectorize_nd_extract", AttrKind::Unit),
                opt_attr("assume_dynamic_dims_match_vec_sizes", AttrKind::Unit),
                opt_attr("create_named_contraction", AttrKind::Unit),
                opt_attr("scalable_sizes", AttrKind::Any),
            ],
            format: "$target oilist(`vector_sizes` custom<DynamicIndexList>($vector_sizes, $static_vector_sizes, $scalable_sizes)) attr-dict `:` type($target) (`,` type($vector_sizes)^)?",
            customs: &[DYNAMIC_INDEX_LIST],
            ..OpSpec::EMPTY
        },
        &[Handle, ParamOrHandle],
        &[],
    )
    .check(verify_vectorize),
    TOp::new(
        OpSpec {
            name: "transform.structured.tile_reduction_using_for",
            operands: &[one("target"), var("tile_sizes")],
            attrs: &[optional_default_attr("static_tile_sizes", AttrKind::I64Array, "[]")],
            results: &[var("fill_op"), one("split_linalg_op"), one("combining_linalg_op"), one("for_op")],
            format: "$target `by` `tile_sizes` `=` custom<DynamicIndexList>($tile_sizes, $static_tile_sizes) attr-dict `:` functional-type(operands, results)",
            customs: &[DYNAMIC_INDEX_LIST],
            ..OpSpec::EMPTY
        },
        &[Handle, Any],
        &[Handle, Handle, Handle, Handle],
    ),
    functional("transform.structured.convert_to_loops", RESULT),
    functional("transform.structured.decompose", TRANSFORMED),
    TOp::new(
        OpSpec {
            name: "transform.structured.eliminate_empty_tensors",
            operands: TARGET,
            format: "$target attr-dict `:` type($target)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    functional("transform.structured.flatten_elementwise", TRANSFORMED),
    semi_functional("transform.structured.generalize"),
    semi_functional("transform.structured.specialize"),
    TOp::new(
        OpSpec {
            name: "transform.structured.interchange",
            operands: TARGET,
            attrs: &[optional_default_attr("iterator_interchange", AttrKind::I64Array, "[]")],
            results: TRANSFORMED,
            format: "$target (`iterator_interchange` `=` $iterator_interchange^)? attr-dict `:` custom<SemiFunctionType>($target, $transformed)",
            customs: &[SEMI_FUNCTION_TYPE],
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    )
    .check(verify_interchange),
    TOp::new(
        OpSpec {
            name: "transform.structured.hoist_redundant_vector_transfers",
            operands: TARGET,
            attrs: &[opt_attr("verify_non_zero_trip", AttrKind::Unit)],
            results: TRANSFORMED,
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.structured.vectorize_children_and_apply_patterns",
            operands: TARGET,
            attrs: &[
                opt_attr("fold_type_extensions_into_contract", AttrKind::Unit),
                opt_attr("vectorize_padding", AttrKind::Unit),
                opt_attr("vectorize_nd_extract", AttrKind::Unit),
                opt_attr("flatten_1d_depthwise_conv", AttrKind::Unit),
                opt_attr("disable_multi_reduction_to_contract_patterns", AttrKind::Unit),
                opt_attr("disable_transfer_permutation_map_lowering_patterns", AttrKind::Unit),
            ],
            results: TRANSFORMED,
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
];
