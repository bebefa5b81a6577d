//! The pattern descriptors `transform.apply_patterns` holds: each names a
//! set of rewrite patterns (`apply_patterns.canonicalization`,
//! `apply_patterns.tensor.merge_consecutive_insert_extract_slice`, ...).
//! Most take no arguments; the few with options are specs of their own.

use hivm_ir::opspec::{AttrKind, OpSpec, default_attr, opt_attr};

use super::TOp;

/// The descriptors without arguments (`attr-dict` alone), as MLIR 22 names them.
const PLAIN: &[&str] = &[
    "transform.apply_patterns.arm_neon.vector_contract_to_bfmmla",
    "transform.apply_patterns.arm_neon.vector_contract_to_i8mm",
    "transform.apply_patterns.arm_sve.vector_contract_to_bfmmla",
    "transform.apply_patterns.arm_sve.vector_contract_to_i8mm",
    "transform.apply_patterns.canonicalization",
    "transform.apply_patterns.gpu.gpu_rewrite_patterns",
    "transform.apply_patterns.linalg.decompose_pack_unpack",
    "transform.apply_patterns.linalg.decompose_pad",
    "transform.apply_patterns.linalg.erase_unnecessary_inputs",
    "transform.apply_patterns.linalg.fold_add_into_dest",
    "transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes",
    "transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices",
    "transform.apply_patterns.linalg.pad_vectorization",
    "transform.apply_patterns.linalg.tiling_canonicalization",
    "transform.apply_patterns.memref.expand_ops",
    "transform.apply_patterns.memref.expand_strided_metadata",
    "transform.apply_patterns.memref.extract_address_computations",
    "transform.apply_patterns.memref.fold_memref_alias_ops",
    "transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims",
    "transform.apply_patterns.scf.for_loop_canonicalization",
    "transform.apply_patterns.tensor.bubble_up_extract_slice",
    "transform.apply_patterns.tensor.decompose_concat",
    "transform.apply_patterns.tensor.drop_redundant_insert_slice_rank_expansion",
    "transform.apply_patterns.tensor.fold_into_pack_and_unpack",
    "transform.apply_patterns.tensor.fold_tensor_subset_ops",
    "transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers",
    "transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice",
    "transform.apply_patterns.tensor.reassociative_reshape_folding",
    "transform.apply_patterns.vector.cast_away_vector_leading_one_dim",
    "transform.apply_patterns.vector.drop_inner_most_unit_dims_from_xfer_ops",
    "transform.apply_patterns.vector.drop_unit_dims_with_shape_cast",
    "transform.apply_patterns.vector.elementwise_to_vector",
    "transform.apply_patterns.vector.fold_arith_extension",
    "transform.apply_patterns.vector.interleave_to_shuffle",
    "transform.apply_patterns.vector.lower_bitcast",
    "transform.apply_patterns.vector.lower_broadcast",
    "transform.apply_patterns.vector.lower_create_mask",
    "transform.apply_patterns.vector.lower_gather",
    "transform.apply_patterns.vector.lower_interleave",
    "transform.apply_patterns.vector.lower_masked_transfers",
    "transform.apply_patterns.vector.lower_masks",
    "transform.apply_patterns.vector.lower_outerproduct",
    "transform.apply_patterns.vector.lower_scan",
    "transform.apply_patterns.vector.lower_shape_cast",
    "transform.apply_patterns.vector.materialize_masks",
    "transform.apply_patterns.vector.rank_reducing_subview_patterns",
    "transform.apply_patterns.vector.reduction_to_contract",
    "transform.apply_patterns.vector.rewrite_narrow_types",
    "transform.apply_patterns.vector.sink_mem_ops",
    "transform.apply_patterns.vector.sink_ops",
    "transform.apply_patterns.vector.transfer_permutation_patterns",
    "transform.apply_patterns.vector.unroll_from_elements",
    "transform.apply_patterns.vector.unroll_to_elements",
    "transform.apply_patterns.x86vector.sink_vector_producer_ops",
    "transform.apply_patterns.x86vector.vector_contract_bf16_to_fma",
    "transform.apply_patterns.x86vector.vector_contract_to_fma",
    "transform.apply_patterns.x86vector.vector_contract_to_packed_type_dot_product",
    "transform.apply_patterns.gpu.eliminate_barriers",
];

/// The descriptors with options.
const WITH_OPTIONS: &[OpSpec] = &[
    OpSpec {
        name: "transform.apply_patterns.memref.alloc_to_alloca",
        attrs: &[opt_attr("size_limit", AttrKind::Int(64))],
        format: "(`size_limit` `(` $size_limit^ `)`)? attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "transform.apply_patterns.linalg.fold_pack_unpack_into_empty",
        attrs: &[default_attr("fold_single_use_only", AttrKind::Bool, "false")],
        format: "attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "transform.apply_patterns.tensor.fold_tensor_empty",
        attrs: &[default_attr("fold_single_use_only", AttrKind::Bool, "false")],
        format: "attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "transform.apply_patterns.tensor.rewrite_as_constant",
        attrs: &[opt_attr("aggressive", AttrKind::Unit)],
        format: "(`aggressive` $aggressive^)? attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "transform.apply_patterns.vector.lower_transfer",
        attrs: &[default_attr("max_transfer_rank", AttrKind::Int(64), "1")],
        format: "(`max_transfer_rank` `=` $max_transfer_rank^)? attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "transform.apply_patterns.vector.transfer_to_scf",
        attrs: &[
            default_attr("max_transfer_rank", AttrKind::Int(64), "1"),
            default_attr("full_unroll", AttrKind::Bool, "false"),
        ],
        format: "oilist(`max_transfer_rank` `=` $max_transfer_rank | `full_unroll` `=` $full_unroll) attr-dict",
        ..OpSpec::EMPTY
    },
];

pub(super) fn specs() -> Vec<TOp> {
    let plain = PLAIN.iter().map(|name| TOp::new(OpSpec { name, format: "attr-dict", ..OpSpec::EMPTY }, &[], &[]));
    plain.chain(WITH_OPTIONS.iter().map(|s| TOp::new(*s, &[], &[]))).collect()
}

/// Whether an op may stand in `apply_patterns`' region (MLIR's
/// `PatternDescriptorOpInterface`).
pub(super) fn is_pattern_descriptor(name: &str) -> bool {
    PLAIN.contains(&name) || WITH_OPTIONS.iter().any(|s| s.name == name)
}
