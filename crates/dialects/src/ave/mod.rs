//! AscendNPU-IR's `ave` dialect (HIVMAVE, `ave.hir.*`): register-based
//! vector ops on 1-D vectors and i1 masks that HIVM's regbase lowering
//! produces. Its enum attributes (`#ave.load_dist<NORM>`, ...) are stored
//! opaque and validated here; the ops are declarative specs split by what
//! they do: masks (`mask.rs`), memory (`memory.rs`), arithmetic
//! (`arith.rs`), element type conversions (`convert.rs`) and lane
//! movement (`lanes.rs`).

mod arith;
mod convert;
mod lanes;
mod mask;
mod memory;

use hivm_ir::Dialect;
use hivm_ir::opspec::{AttrKind, EnumKind, ValueDef, one};

const fn ave(mnemonic: &'static str, summary: &'static str) -> AttrKind {
    AttrKind::Enum(EnumKind { dialect: "ave", mnemonic, summary })
}

pub(crate) const LOAD_DIST: AttrKind = ave("load_dist", "Post-processing patterns for AVE Load operation");
pub(crate) const STORE_DIST: AttrKind = ave("store_dist", "Post-processing patterns for AVE Store operation");
pub(crate) const MASK_TYPE: AttrKind = ave("mask_type", "Different type masks for AVE generating predicate operation");
pub(crate) const PGE_PATTERN: AttrKind = ave("pge_pattern", "Patterns for AVE Pge operation");
pub(crate) const PP_TYPE: AttrKind = ave("vcvt_pp_type", "PP patterns for AVE VCVT operation");
pub(crate) const PART_TYPE: AttrKind = ave("vcvt_part_type", "Patterns for the #part option in AVE VCVT operation");
pub(crate) const VCI_TYPE: AttrKind = ave("vci_type", "Patterns for AVE VCI operation");
pub(crate) const CMP_TYPE: AttrKind = ave("cmp_type", "cmp op type for AVE Cmp operation");
pub(crate) const COMBINING_KIND: AttrKind = ave("kind", "Kind of combining function for reductions");
pub(crate) const PREG_CAST_MODE: AttrKind = ave("preg_cast_mode", "Cast mode for AVE Preg type casting operation");

/// The mask operand every vector op takes.
pub(crate) const MASK: ValueDef = one("mask");

/// Enums written `#ave.mnemonic<VALUE>`: mnemonic → allowed values.
const ENUMS: &[(&str, &[&str])] = &[
    (
        "load_dist",
        &[
            "NORM",
            "BRC_B8",
            "BRC_B16",
            "BRC_B32",
            "US_B8",
            "US_B16",
            "DS_B8",
            "DS_B16",
            "BDINTLV",
            "DINTLV_B8",
            "DINTLV_B16",
            "UNPK_B8",
            "UNPK_B16",
            "BLK",
            "E2B_B16",
            "E2B_B32",
            "UNPK_B32",
            "DINTLV_B32",
            "UNPK4_B8",
            "SPLT4CHN_B8",
            "SPLT2CHN_B8",
            "SPLT2CHN_B16",
            "US",
            "DS",
            "PK",
            "BRC_B64",
        ],
    ),
    (
        "store_dist",
        &[
            "NORM_B8",
            "NORM_B16",
            "NORM_B32",
            "ONEPT_B8",
            "ONEPT_B16",
            "ONEPT_B32",
            "PK_B16",
            "PK_B32",
            "INTLV_B8",
            "INTLV_B16",
            "PK_B64",
            "INTLV_B32",
            "PK4_B32",
            "MRG4CHN_B8",
            "MRG2CHN_B8",
            "MRG2CHN_B16",
            "NORM_B64",
            "ONEPT_B64",
        ],
    ),
    ("mask_type", &["b32", "b16", "b8", "undef"]),
    (
        "pge_pattern",
        &["ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32", "VL64", "VL128", "M3", "M4", "H", "Q", "ALLF"],
    ),
    ("vcvt_pp_type", &["pp0", "pp1", "pp2", "pp3"]),
    ("vcvt_part_type", &["part_even", "part_odd"]),
    ("vci_type", &["INCREASE", "DECREASE"]),
    ("cmp_type", &["EQ", "NE", "GT", "GE", "LT", "LE", "ULE", "UGE", "ULT", "UGT"]),
    ("kind", &["add", "min", "max", "xori", "umin", "umax"]),
    ("type_convert_kind", &["F322F16", "F162F32"]),
    ("vec_mem_type", &["top", "any", "b8", "b16", "b8_2vl", "b32", "b16_2vl", "b8_4vl", "bottom"]),
    (
        "func_dist_type",
        &[
            "top", "none", "norm", "pk", "pk4", "pb8", "pb16", "pb32", "even", "c2c", "unpk", "unpk4", "pintlv2",
            "pintlv4", "intlv2", "intlv4", "dintlv2", "dintlv4", "invalid", "bottom",
        ],
    ),
    ("preg_cast_mode", &["UNPK_B8", "UNPK_B16", "UNPK4_B8", "PK_B16", "PK_B32", "PK4_B32"]),
];

/// Enums whose format is the bare value, so MLIR writes them
/// `#ave<layout_change DENSE>`.
const BARE_ENUMS: &[(&str, &[&str])] =
    &[("layout_change", &["UNCHANGED", "SPARSE", "DENSE"]), ("layout", &["UNKNOWN", "intlv", "planar"])];

fn check_attr(body: &str) -> Result<String, String> {
    // `#ave<mnemonic ...>` arrives with its brackets.
    let body = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body).trim();
    if body == "unaligned_ub_access" {
        return Ok(body.to_string());
    }
    if let Some(rest) = body.strip_prefix("vector_layout") {
        // `<{mem = #ave.vec_mem_type<b8>}>`, a struct of one attribute.
        if rest.starts_with("<{") && rest.ends_with("}>") {
            return Ok(body.to_string());
        }
        return Err("expected `<{mem = ...}>` after `vector_layout`".into());
    }
    if let Some((mnemonic, value)) = body.split_once(char::is_whitespace)
        && let Some((_, values)) = BARE_ENUMS.iter().find(|(m, _)| *m == mnemonic)
    {
        let value = value.trim();
        if !values.contains(&value) {
            return Err(format!("expected one of [{}] for {mnemonic}, got '{value}'", values.join(", ")));
        }
        return Ok(format!("{mnemonic} {value}"));
    }
    crate::util::check_enum_attr("ave", ENUMS, body)
}

pub fn dialect() -> Dialect {
    let specs = [mask::SPECS, memory::SPECS, arith::SPECS, convert::SPECS, lanes::SPECS].concat();
    let mut d = Dialect::new("ave", specs.iter().map(|s| s.def()).collect());
    d.check_attr = Some(check_attr);
    d
}
