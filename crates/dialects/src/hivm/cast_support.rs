//! Which `hivm.hir.vcast` conversions the hardware, or the library's
//! software sequences, provide: upstream's `VCastOp` verifier rejects any
//! other with "currently don't support cast <src>_to_<dst>_<mode>mode",
//! naming the element types as the AscendC library does (`half`,
//! `int8_t`, `bfloat16_t`, ...).

use hivm_ir::types::{FloatKind, Signedness};
use hivm_ir::{Ir, Type, TypeData};

/// A row: source type, destination type, the rounding modes provided.
/// Types in short form (`s8` signed/signless i8, `u8` unsigned, `b1` i1,
/// `e4m3` f8E4M3FN, `e5m2` f8E5M2).
type Row = (&'static str, &'static str, &'static str);

const ALL5: &str = "ceil floor rint round trunc";

/// Conversions the vector unit performs directly, on every target.
const HARDWARE: &[Row] = &[
    ("bf16", "f32", "rint round"),
    ("bf16", "s32", ALL5),
    ("f32", "bf16", ALL5),
    ("f32", "f32", ALL5),
    ("f32", "f16", "ceil floor odd rint round trunc"),
    ("f32", "s16", ALL5),
    ("f32", "s32", ALL5),
    ("f32", "s64", ALL5),
    ("f16", "f32", "floor rint round trunc"),
    ("f16", "s16", ALL5),
    ("f16", "s32", ALL5),
    ("f16", "s4", ALL5),
    ("f16", "s8", ALL5),
    ("f16", "u8", ALL5),
    ("s16", "f32", "rint trunc"),
    ("s16", "f16", ALL5),
    ("s32", "f32", ALL5),
    ("s32", "s16", "rint"),
    ("s32", "s64", "rint"),
    ("s4", "f16", "rint"),
    ("s64", "f32", ALL5),
    ("s64", "s32", "rint"),
    ("s8", "f16", "rint trunc"),
    ("u8", "f16", "rint"),
];

/// Conversions built from several instructions on memory-based targets
/// (910B and earlier).
const SOFTWARE_MEMORY_BASED: &[Row] = &[
    ("bf16", "bf16", "ceil floor"),
    ("f16", "f16", "ceil floor"),
    ("f32", "s8", ALL5),
    ("b1", "bf16", "rint trunc"),
    ("b1", "f32", "rint trunc"),
    ("b1", "f16", "rint trunc"),
    ("b1", "s8", "rint"),
    ("b1", "s16", "rint"),
    ("b1", "s32", "rint"),
    ("b1", "u16", "rint"),
    ("b1", "u32", "rint"),
    ("s4", "s8", "rint"),
    ("s8", "b1", "rint"),
    ("s8", "s16", "rint"),
    ("s8", "s32", "rint"),
    ("s16", "b1", "rint"),
    ("s16", "s32", "rint"),
    ("s16", "s8", "truncwithoverflow"),
    ("s32", "b1", "rint"),
    ("s32", "s16", "truncwithoverflow"),
    ("s32", "s8", "truncwithoverflow"),
    ("s64", "s32", "truncwithoverflow"),
];

/// Conversions built from several instructions on register-based targets
/// (the 950 generation).
const SOFTWARE_REGISTER_BASED: &[Row] = &[
    ("bf16", "bf16", "ceil floor"),
    ("f16", "f16", "ceil floor"),
    ("f32", "s8", ALL5),
    ("f32", "s16", "truncwithoverflow"),
    ("f32", "s32", "truncwithoverflow"),
    ("f32", "e4m3", "rint"),
    ("f32", "e5m2", "rint"),
    ("e4m3", "f32", "rint"),
    ("e5m2", "f32", "rint"),
    ("bf16", "b1", "rint"),
    ("f16", "b1", "rint"),
    ("f32", "b1", "rint trunc"),
    ("b1", "bf16", "rint trunc"),
    ("b1", "f32", "rint trunc"),
    ("b1", "f16", "rint trunc"),
    ("b1", "s8", "rint"),
    ("b1", "s16", "rint"),
    ("b1", "s32", "rint"),
    ("b1", "s64", "rint"),
    ("b1", "u16", "rint"),
    ("b1", "u32", "rint"),
    ("s4", "s8", "rint"),
    ("s8", "b1", "rint"),
    ("s8", "bf16", "rint"),
    ("s8", "f32", "trunc"),
    ("s8", "f16", "round"),
    ("s8", "s16", "rint round"),
    ("s8", "s32", "rint"),
    ("s16", "b1", "rint"),
    ("s16", "s32", "rint"),
    ("s16", "s8", "trunc truncwithoverflow"),
    ("s32", "b1", "rint"),
    ("s32", "s16", "trunc truncwithoverflow"),
    ("s32", "s64", "round"),
    ("s32", "s8", "trunc truncwithoverflow"),
    ("s64", "b1", "rint"),
    ("s64", "f16", "trunc"),
    ("s64", "s8", "rint"),
    ("s64", "s16", "rint"),
    ("s64", "s32", "truncwithoverflow"),
    ("u8", "u16", "rint"),
    ("u8", "u32", "rint"),
    ("u16", "u8", "truncwithoverflow"),
    ("u32", "bf16", "rint"),
    ("u32", "f32", "rint"),
    ("u32", "u64", "rint"),
];

/// The short name of an element type, as the rows spell it, and the
/// library's name for it; `None` for a type the library has no name for.
fn names(ir: &Ir, t: Type, unsigned_cast: bool) -> Option<(String, String)> {
    match ir.type_data(t) {
        TypeData::Integer { width: 1, .. } => Some(("b1".into(), "bool".into())),
        TypeData::Integer { width: w @ (4 | 8 | 16 | 32 | 64), signedness } => {
            if unsigned_cast || *signedness == Signedness::Unsigned {
                Some((format!("u{w}"), format!("uint{w}_t")))
            } else {
                Some((format!("s{w}"), format!("int{w}_t")))
            }
        }
        TypeData::Float(k) => {
            let (short, lib) = match k {
                FloatKind::F8E4M3FN => ("e4m3", "float8_e4m3_t"),
                FloatKind::F8E5M2 => ("e5m2", "float8_e5m2_t"),
                FloatKind::F16 => ("f16", "half"),
                FloatKind::BF16 => ("bf16", "bfloat16_t"),
                FloatKind::F32 => ("f32", "float"),
                FloatKind::F64 => ("f64", "double"),
                _ => return None,
            };
            Some((short.into(), lib.into()))
        }
        _ => None,
    }
}

fn listed(rows: &[Row], src: &str, dst: &str, mode: &str) -> bool {
    rows.iter().any(|(s, d, modes)| *s == src && *d == dst && modes.split(' ').any(|m| m == mode))
}

/// `Err(message)` when the cast from element type `src` to `dst` in `mode`
/// is provided neither by the hardware nor by the target's software
/// sequences. `unsigned_cast` is `cast = #hivm.type_fn<cast_unsigned>`.
pub(super) fn check(
    ir: &Ir,
    src: Type,
    dst: Type,
    mode: &str,
    unsigned_cast: bool,
    register_based: bool,
) -> Result<(), String> {
    let (s, d) = (names(ir, src, unsigned_cast), names(ir, dst, unsigned_cast));
    if let (Some((ss, _)), Some((ds, _))) = (&s, &d) {
        let software = if register_based { SOFTWARE_REGISTER_BASED } else { SOFTWARE_MEMORY_BASED };
        if listed(HARDWARE, ss, ds, mode) || listed(software, ss, ds, mode) {
            return Ok(());
        }
    }
    let lib = |n: Option<(String, String)>| n.map_or_else(|| "UNKNOWN".to_string(), |(_, l)| l);
    Err(format!("currently don't support cast {}_to_{}_{mode}mode", lib(s), lib(d)))
}
