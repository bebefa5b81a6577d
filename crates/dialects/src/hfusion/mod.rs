//! AscendNPU-IR's `hfusion` dialect, as far as HIVM kernels carry it: its
//! enum attributes (`#hfusion.fusion_kind<PURE_ELEMWISE>`, the function and
//! mode enums of its named ops), validated and canonicalized, and the ops
//! HIVM's tests use: the OpDSL elementwise ops (`named.rs`), the
//! declaratively formatted ones (`ops.rs`) and the hand-formatted structured
//! ones, `reduce_with_index`, `gather`, `gather_mask`, the convolutions, ...
//! (`structured.rs`).

mod named;
mod ops;
mod structured;

use hivm_ir::Dialect;

pub use structured::{build_arange, build_gather, build_reduce_with_index};

use crate::linalg::elementwise::Named;

/// The elementwise named ops, for linalg's shared engine.
pub(crate) static NAMED: &[&Named] = &[
    &named::ELEMWISE_UNARY,
    &named::ELEMWISE_BINARY,
    &named::ELEMWISE_TERNARY,
    &named::COMPARE,
    &named::SELECT,
    &named::CAST,
    &named::LOAD,
    &named::STORE,
    &named::BITCAST,
];

/// Enum-valued attributes: mnemonic → allowed values.
const ENUMS: &[(&str, &[&str])] = &[
    (
        "fusion_kind",
        &[
            "PURE_ELEMWISE",
            "ANY_PB",
            "LAST_AXIS_PBR",
            "ANY_PBR",
            "SINGLE_CUBE",
            "SHALLOW_CV",
            "SHALLOW_VV",
            "MIX_CV",
            "MIX_C2",
            "UNKNOWN",
        ],
    ),
    ("round_mode", &["rint", "round", "floor", "ceil", "trunc", "odd", "truncwithoverflow"]),
    (
        "unary_fn",
        &[
            "relu",
            "sqrt",
            "rsqrt",
            "rec",
            "vnot",
            "tanh",
            "sin",
            "cos",
            "atan",
            "tan",
            "absi",
            "erf",
            "log2",
            "log10",
            "log1p",
            "exp2",
            "expm1",
            "ilogb",
            "asin",
            "acos",
            "asinh",
            "acosh",
            "atanh",
            "sinh",
            "lgamma",
            "cosh",
            "nearbyint",
        ],
    ),
    (
        "binary_fn",
        &[
            "vor",
            "vand",
            "vxor",
            "minf",
            "maxf",
            "powf",
            "mod",
            "modui",
            "shli",
            "shrsi",
            "shrui",
            "ldexp",
            "ceildivsi",
            "ceildivui",
            "floordivsi",
            "powi",
            "minnumf",
            "maxnumf",
            "atan2",
            "divfhp",
            "copysign",
        ],
    ),
    ("compare_fn", &["veq", "vne", "vle", "vlt", "vge", "vgt", "vule", "vult", "vuge", "vugt"]),
    ("ternary_fn", &["select", "fma"]),
    ("type_fn", &["cast_signed", "cast_unsigned", "bitcast"]),
    ("unsigned_mode", &["si2si", "si2ui", "ui2si", "ui2ui"]),
    ("atomic_kind", &["none", "add", "max", "min", "and", "or", "xor", "cas", "xchg", "umax", "umin"]),
    ("cache_modifier", &["none", "ca", "cg", "wb", "cs", "wt", "cv"]),
    ("eviction_policy", &["EvictNormal", "EvictFirst", "EvictLast"]),
    ("padding_option", &["zero", "nan"]),
    ("reduce_with_index_kind", &["min", "max", "minui", "maxui"]),
    ("cum_op_type", &["undefined", "cumsum", "cumprod", "cummax", "cummin"]),
];

/// Parameterless marker attributes.
const MARKERS: &[&str] = &[
    "bind_sub_block",
    "insert_slice_source_index",
    "multi_buffer",
    "reduce_composed",
    "return_operand_num",
    "stride_align_dims",
    "stride_align_value_in_byte",
];

fn check_attr(body: &str) -> Result<String, String> {
    if MARKERS.contains(&body) {
        return Ok(body.to_string());
    }
    crate::util::check_enum_attr("hfusion", ENUMS, body)
}

pub fn dialect() -> Dialect {
    let mut defs: Vec<hivm_ir::OpDef> = NAMED.iter().map(|n| n.def()).collect();
    defs.extend([ops::INTERLEAVE, ops::DEINTERLEAVE, ops::CUMSUM, ops::CUMPROD].map(|s| s.def()));
    defs.extend(ops::DECLARATIVE.iter().map(|s| s.def()));
    defs.extend(ops::MULEXT.map(|s| s.def().names(hivm_ir::opspec::name_results_after_defs)));
    defs.push(ops::signbit());
    defs.extend(structured::defs());
    let mut d = Dialect::new("hfusion", defs);
    d.check_attr = Some(check_attr);
    d
}
