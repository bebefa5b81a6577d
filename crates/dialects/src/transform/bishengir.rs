//! AscendNPU-IR's transform extensions with declarative syntax: HFusion's
//! (`func.get_func_argument`, `structured.cache_read`, ...), HIVM's
//! (`hivm.map_forall_to_blocks`) and its SCF ones (`loop.for_to_forall`,
//! ...), as its TableGen writes them.

use hivm_ir::opspec::{
    AttrDef, AttrKind, IntEnumKind, OpSpec, ValueDef, attr, default_attr, one, opt_attr, optional_default_attr, var,
};

use super::Kind::{Handle, Value};
use super::customs::{SEMI_FUNCTION_TYPE, TRANSFORM_MATCH_DIMS};
use super::structured::{MATCH_ATTRS, match_filters, verify_match_filters};
use super::{RESULT, TARGET, TOp, TRANSFORMED};

/// `SetBufferSizeModeEnum`.
const SET_BUFFER_SIZE_MODE: AttrKind = AttrKind::IntEnum(IntEnumKind {
    cases: &[("per_byte", 0), ("per_element", 1)],
    width: 32,
    summary: "Set buffer size mode for SetBufferSizeOp",
});

const ARGUMENT_ATTRS: &[AttrDef] = &[
    attr("raw_position_list", AttrKind::I64Array),
    opt_attr("is_inverted", AttrKind::Unit),
    opt_attr("is_all", AttrKind::Unit),
    opt_attr("find_reshape_consumer", AttrKind::Unit),
];
const RESULT_ATTRS: &[AttrDef] = &[
    attr("raw_position_list", AttrKind::I64Array),
    opt_attr("is_inverted", AttrKind::Unit),
    opt_attr("is_all", AttrKind::Unit),
    opt_attr("find_reshape_producer", AttrKind::Unit),
];
const OUTPUTS: &[ValueDef] = &[one("outputs")];

/// `func.get_func_argument` / `func.get_func_result`: values of the target
/// function by position.
const fn func_values(name: &'static str, attrs: &'static [AttrDef]) -> TOp {
    TOp::new(
        OpSpec {
            name,
            operands: TARGET,
            attrs,
            results: OUTPUTS,
            format: "$target `[` custom<TransformMatchDims>($raw_position_list, $is_inverted, $is_all) `]` attr-dict `:` custom<SemiFunctionType>($target, $outputs)",
            customs: &[TRANSFORM_MATCH_DIMS, SEMI_FUNCTION_TYPE],
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Value],
    )
}

/// `%target : (T) -> R`, one handle in and one out.
const fn handle_to_handle(name: &'static str, results: &'static [ValueDef]) -> TOp {
    TOp::new(
        OpSpec { name, operands: TARGET, results, format: super::TARGET_FUNCTIONAL, ..OpSpec::EMPTY },
        &[Handle],
        &[Handle],
    )
}

pub(super) const SPECS: &[TOp] = &[
    func_values("transform.func.get_func_argument", ARGUMENT_ATTRS),
    func_values("transform.func.get_func_result", RESULT_ATTRS),
    TOp::new(
        OpSpec {
            name: "transform.structured.cache_read",
            operands: &[one("targets")],
            results: &[one("cached")],
            format: "$targets attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Value],
        &[Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.structured.cache_write",
            operands: &[one("targets")],
            attrs: &[
                optional_default_attr("output_only", AttrKind::Bool, "false"),
                optional_default_attr("cache_write_to_output_init", AttrKind::Bool, "false"),
            ],
            results: &[one("cached")],
            format: "$targets attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Value],
        &[Handle],
    ),
    handle_to_handle("transform.reverse", RESULT),
    TOp::new(
        OpSpec {
            name: "transform.structured.set_buffer_size",
            operands: &[var("target")],
            attrs: &[
                optional_default_attr("static_buffer_sizes", AttrKind::I64Array, "[]"),
                attr("unit_mode", SET_BUFFER_SIZE_MODE),
                opt_attr("reference_type", AttrKind::TypeAttr),
            ],
            format: "$target (`static_buffer_sizes` `=` $static_buffer_sizes^)? `unit_mode` `=` $unit_mode (`reference_type` `=` $reference_type^)? `:` type($target)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.structured.multi_buffer",
            operands: &[var("target")],
            attrs: &[optional_default_attr("factor", AttrKind::Int(32), "2")],
            format: "$target (`factor` `=` $factor^)? attr-dict `:` type($target)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[],
    ),
    TOp::new(
        OpSpec {
            name: "transform.structured.match.ancestor_of",
            operands: &[one("target"), one("child")],
            attrs: MATCH_ATTRS,
            results: &[one("results")],
            format: concat!(
                match_filters!(),
                " `in` $target `ancestor` `of` $child `:` functional-type(operands, results)"
            ),
            ..OpSpec::EMPTY
        },
        &[Handle, Handle],
        &[Handle],
    )
    .check(verify_match_filters),
    TOp::new(
        OpSpec {
            name: "transform.loop.extended_outline_op",
            operands: &[var("targets")],
            attrs: &[attr("func_name", AttrKind::Str)],
            results: &[one("function"), one("call")],
            format: "$targets attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle, Handle],
    ),
    TOp::new(
        OpSpec {
            name: "transform.loop.merge_producer_extract_uses",
            operands: &[one("producer_op"), one("containing_op")],
            format: "$producer_op `into` $containing_op attr-dict `:` type($producer_op) `into` type($containing_op)",
            ..OpSpec::EMPTY
        },
        &[Handle, Handle],
        &[],
    ),
    handle_to_handle("transform.hivm.map_forall_to_blocks", RESULT),
    TOp::new(
        OpSpec {
            name: "transform.loop.for_to_forall",
            operands: &[one("for_op")],
            attrs: &[opt_attr("mapping", AttrKind::Array), default_attr("annotate_only", AttrKind::Bool, "false")],
            results: &[one("forallOp")],
            format: "$for_op attr-dict `:` functional-type(operands, results)",
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
    handle_to_handle("transform.loop.normalize", TRANSFORMED),
    TOp::new(
        OpSpec {
            name: "transform.loop.fuse_nested_siblings",
            operands: TARGET,
            attrs: &[default_attr("recursive", AttrKind::Bool, "false")],
            results: &[one("transformed")],
            format: super::TARGET_FUNCTIONAL,
            ..OpSpec::EMPTY
        },
        &[Handle],
        &[Handle],
    ),
];
