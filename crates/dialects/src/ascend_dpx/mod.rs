//! AscendNPU-IR's `ascend_dpx` dialect: the SIMT virtual ISA of Ascend
//! David cores. Its enum attributes (`#ascend_dpx.dpx_load_cache<...>`)
//! are stored opaque and validated here; the ops are declarative specs
//! split by what they do: thread/block queries and barriers (`info.rs`),
//! memory and atomics (`memory.rs`), warp-level lane exchange
//! (`warp.rs`), scalar math and casts (`math.rs`) and scalar calls
//! (`call.rs`).

mod call;
mod info;
mod math;
mod memory;
mod warp;

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, EnumKind};
use hivm_ir::{Dialect, Ir, OpId, TypeData};

const fn dpx(mnemonic: &'static str, summary: &'static str) -> AttrKind {
    AttrKind::Enum(EnumKind { dialect: "ascend_dpx", mnemonic, summary })
}

pub(crate) const LOAD_CACHE: AttrKind = dpx("dpx_load_cache", "L2 Cache policy for David A5 load operations");
pub(crate) const STORE_CACHE: AttrKind = dpx("dpx_store_cache", "L2 Cache policy for David A5 store operations");
pub(crate) const CACHE_OPTION: AttrKind =
    dpx("dpx_cache_option", "Cache Option for David A5 Memory Load/Store Operations");
pub(crate) const VOLATILE_OPTION: AttrKind = dpx("dpx_volatile_option", "Volatile Option for David A5 Load Operations");
pub(crate) const CAST_KIND: AttrKind = dpx("dpx_cast_kind", "Type of cast operation");

/// Enums written `#ascend_dpx.mnemonic<VALUE>`: mnemonic → allowed values.
const ENUMS: &[(&str, &[&str])] = &[
    (
        "dpx_load_cache",
        &[
            "L2_CACHE_HINT_NORMAL_FV",
            "L2_CACHE_HINT_NORMAL_LV",
            "L2_CACHE_HINT_NORMAL_PERS",
            "L2_CACHE_HINT_NORMAL_PREF",
            "L2_CACHE_HINT_NOTALLOC_KEEP",
            "L2_CACHE_HINT_NOTALLOC_CLEAN",
            "L2_CACHE_HINT_NOTALLOC_DROP",
            "L2_CACHE_HINT_IDS_FV",
            "L2_CACHE_HINT_IDS_LV",
            "L2_CACHE_HINT_IDS_PERS",
            "L2_CACHE_HINT_IDS_PREF",
            "L2_CACHE_HINT_EXCLUSIV_FV",
            "L2_CACHE_HINT_EXCLUSIV_LV",
            "L2_CACHE_HINT_EXCLUSIV_PERS",
            "L2_CACHE_HINT_EXCLUSIV_PREF",
            "L2_CACHE_HINT_INVALID",
        ],
    ),
    (
        "dpx_store_cache",
        &[
            "L2_CACHE_HINT_NORMAL_FV",
            "L2_CACHE_HINT_NORMAL_LV",
            "L2_CACHE_HINT_NORMAL_PERS",
            "L2_CACHE_HINT_NORMAL_RED",
            "L2_CACHE_HINT_NOTALLOC_CI",
            "L2_CACHE_HINT_NOTALLOC_PW",
            "L2_CACHE_HINT_NOTALLOC_PI",
            "L2_CACHE_HINT_NOTALLOC_RED",
            "L2_CACHE_HINT_WBH_FV",
            "L2_CACHE_HINT_WBH_LV",
            "L2_CACHE_HINT_WBH_PERS",
            "L2_CACHE_HINT_WBH_RED",
            "L2_CACHE_HINT_WTS_FV",
            "L2_CACHE_HINT_WTS_LV",
            "L2_CACHE_HINT_WTS_PERS",
            "L2_CACHE_HINT_WTS_RED",
            "L2_CACHE_HINT_INVALID",
        ],
    ),
    ("dpx_cache_option", &["LOADCACHEOPTION_NCA", "LOADCACHEOPTION_CA"]),
    ("dpx_volatile_option", &["NONVOLATILE", "VOLATILE"]),
    ("dpx_cast_kind", &["si_to_fp", "ui_to_fp", "fp_to_si", "fp_to_ui", "fp_to_fp"]),
];

fn check_attr(body: &str) -> Result<String, String> {
    crate::util::check_enum_attr("ascend_dpx", ENUMS, body)
}

/// Whether `t` is an `!llvm.ptr` (any address space).
pub(crate) fn is_llvm_ptr(ir: &Ir, t: hivm_ir::Type) -> bool {
    matches!(ir.type_data(t), TypeData::Opaque { dialect, body }
        if dialect == "llvm" && (body == "ptr" || body.starts_with("ptr<")))
}

/// `LLVM_AnyPointer` on the first operand.
pub(crate) fn verify_ptr(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&v) = ir.operands(op).first() else { return Ok(()) };
    let t = ir.value_type(v);
    if is_llvm_ptr(ir, t) {
        return Ok(());
    }
    Err(format!("operand #0 must be LLVM pointer type, but got '{}'", hivm_ir::printer::type_to_string(ir, t)).into())
}

pub fn dialect() -> Dialect {
    let specs = [info::SPECS, memory::SPECS, warp::SPECS, call::SPECS, math::specs()].concat();
    let mut d = Dialect::new("ascend_dpx", specs.iter().map(|s| s.def()).collect());
    d.check_attr = Some(check_attr);
    d
}
