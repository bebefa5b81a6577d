//! Triton's `tt` dialect as AscendNPU-IR's Triton paths use it: the
//! `!tt.ptr` type (`types.rs`), element-wise, pointer and shape ops
//! (`ops.rs`), loads, stores, atomics and tensor pointers (`memory.rs`),
//! the region ops `reduce`, `scan` and `map_elementwise` (`regions.rs`),
//! and functions and calls, with AscendNPU-IR's `tt.call_scalar`
//! (`func.rs`). Enum attributes are `i32`s written by their case names,
//! as Triton's `I32EnumAttr`s are.

mod customs;
mod func;
mod memory;
mod ops;
mod regions;
pub(crate) mod types;
mod verify;

use hivm_ir::Dialect;
use hivm_ir::opspec::{AttrKind, IntEnumKind};

const fn int_enum(cases: &'static [(&'static str, i64)], summary: &'static str) -> AttrKind {
    AttrKind::IntEnum(IntEnumKind { cases, width: 32, summary })
}

pub(crate) const CACHE: AttrKind = int_enum(
    &[("none", 1), ("ca", 2), ("cg", 3), ("wb", 4), ("cs", 5), ("wt", 6), ("cv", 7)],
    "allowed 32-bit signless integer cases: 1, 2, 3, 4, 5, 6, 7",
);
pub(crate) const EVICT: AttrKind = int_enum(
    &[("evict_normal", 1), ("evict_first", 2), ("evict_last", 3)],
    "allowed 32-bit signless integer cases: 1, 2, 3",
);
pub(crate) const PADDING: AttrKind =
    int_enum(&[("zero", 1), ("nan", 2)], "allowed 32-bit signless integer cases: 1, 2");
pub(crate) const RMW_OP: AttrKind = int_enum(
    &[
        ("and", 1),
        ("or", 2),
        ("xor", 3),
        ("add", 4),
        ("fadd", 5),
        ("max", 6),
        ("min", 7),
        ("umax", 8),
        ("umin", 9),
        ("exch", 10),
    ],
    "allowed 32-bit signless integer cases: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10",
);
pub(crate) const SEM: AttrKind = int_enum(
    &[("relaxed", 1), ("acquire", 2), ("release", 3), ("acq_rel", 4)],
    "allowed 32-bit signless integer cases: 1, 2, 3, 4",
);
pub(crate) const SCOPE: AttrKind =
    int_enum(&[("gpu", 1), ("cta", 2), ("sys", 3)], "allowed 32-bit signless integer cases: 1, 2, 3");
pub(crate) const PROGRAM_DIM: AttrKind =
    int_enum(&[("x", 0), ("y", 1), ("z", 2)], "allowed 32-bit signless integer cases: 0, 1, 2");
pub(crate) const ROUNDING: AttrKind =
    int_enum(&[("rtz", 0), ("rtne", 1)], "allowed 32-bit signless integer cases: 0, 1");
pub(crate) const PROPAGATE_NAN: AttrKind =
    int_enum(&[("none", 0), ("all", 65535)], "allowed 32-bit signless integer cases: 0, 65535");
pub(crate) const INPUT_PRECISION: AttrKind = int_enum(
    &[("tf32", 0), ("tf32x3", 1), ("ieee", 2), ("bf16x3", 3), ("bf16x6", 4)],
    "allowed 32-bit signless integer cases: 0, 1, 2, 3, 4",
);

pub(crate) use customs::OFFSETS;

/// A dense `i32` array attribute's values (empty when absent).
pub(crate) fn verify_i32_array(ir: &hivm_ir::Ir, op: hivm_ir::OpId, name: &str) -> Vec<i64> {
    verify::i32_array(ir, op, name).unwrap_or_default()
}

pub fn dialect() -> Dialect {
    let mut defs: Vec<hivm_ir::OpDef> =
        [ops::SPECS, memory::SPECS, func::SPECS].concat().iter().map(|s| s.def()).collect();
    defs.extend(regions::defs());
    defs.extend(func::defs());
    let mut d = Dialect::new("tt", defs);
    d.check_type = Some(types::check_type);
    d
}
