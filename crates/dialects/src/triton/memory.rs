//! Memory ops: `tt.load` and `tt.store` (through pointers, tensors of
//! pointers or tensor pointers, with masks, cache and eviction policies),
//! the atomics, and tensor pointers (`make_tensor_ptr`, `advance`).

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, default_attr, one, opt, opt_attr, var};
use hivm_ir::{Ir, OpId, Traits};

use super::customs::{LOAD_TYPE, STORE_TYPE, STRIPPED_PTR};
use super::types::{C, i1_text, loaded_text, pointee_text, text_of};
use super::verify::{constrain, same_encoding, same_shape, type_of};
use super::{CACHE, EVICT, PADDING, RMW_OP, SCOPE, SEM};

type R = Result<(), VerifyError>;

/// The pointer's pointee shape for the mask (`getI1SameShape`): a tensor
/// pointer's tensor, or the pointer type itself.
fn mask_text(ir: &Ir, ptr: hivm_ir::Type) -> String {
    match pointee_text(ir, ptr) {
        Some(p) if p.starts_with("tensor<") => {
            // `tensor<AxBxT, enc>` with `i1` elements.
            let inner = p.strip_prefix("tensor<").and_then(|r| r.strip_suffix('>')).unwrap_or("");
            let parts = crate::util::split_top_level(inner);
            let first = parts.first().map_or("", String::as_str);
            let (dims, _) = crate::triton_gpu::text::split_dims(first).unwrap_or_default();
            let shape: String = dims.iter().map(|d| format!("{d}x")).collect();
            match parts.get(1) {
                Some(e) => format!("tensor<{shape}i1, {e}>"),
                None => format!("tensor<{shape}i1>"),
            }
        }
        _ => i1_text(ir, ptr),
    }
}

/// The value (loaded or stored) and the mask match the pointer.
fn check_pointee(ir: &Ir, op: OpId, value: &str, mask: &str, what: &str) -> R {
    let Some(ptr) = type_of(ir, op, "ptr") else { return Ok(()) };
    let Some(want) = loaded_text(ir, ptr) else { return Ok(()) };
    if let Some(v) = type_of(ir, op, value)
        && text_of(ir, v) != want
    {
        return Err(format!("failed to verify that {what} matches ptr type").into());
    }
    if let Some(m) = type_of(ir, op, mask)
        && text_of(ir, m) != mask_text(ir, ptr)
    {
        return Err("failed to verify that mask type matches ptr type".into());
    }
    Ok(())
}

fn verify_load(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::PtrOrTensorPtr), ("mask", C::BoolLike), ("other", C::Any), ("result", C::Any)])?;
    check_pointee(ir, op, "result", "mask", "result")?;
    if let (Some(ptr), Some(o)) = (type_of(ir, op, "ptr"), type_of(ir, op, "other"))
        && loaded_text(ir, ptr).is_some_and(|w| w != text_of(ir, o))
    {
        return Err("failed to verify that other matches ptr type".into());
    }
    Ok(())
}

fn verify_store(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::PtrOrTensorPtr), ("value", C::Any), ("mask", C::BoolLike)])?;
    check_pointee(ir, op, "value", "mask", "value type")
}

fn verify_atomic_rmw(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::PtrLike), ("val", C::Any), ("mask", C::BoolLike), ("result", C::Any)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)?;
    let (Some(p), Some(v)) = (type_of(ir, op, "ptr"), type_of(ir, op, "val")) else { return Ok(()) };
    if loaded_text(ir, p).is_some_and(|w| w != text_of(ir, v)) {
        return Err("failed to verify that ptr type matches value type".into());
    }
    if let Some(m) = type_of(ir, op, "mask")
        && text_of(ir, m) != i1_text(ir, v)
    {
        return Err("failed to verify that mask type matches value type".into());
    }
    Ok(())
}

fn verify_atomic_cas(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::PtrLike), ("cmp", C::Any), ("val", C::Any), ("result", C::Any)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)
}

fn verify_make_tensor_ptr(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("base", C::Ptr), ("result", C::TensorPtr)])
}

fn verify_advance(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::TensorPtr), ("result", C::TensorPtr)])
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "tt.load",
        operands: &[one("ptr"), opt("mask"), opt("other")],
        attrs: &[
            default_attr("boundaryCheck", AttrKind::I32Array, "[]"),
            opt_attr("padding", PADDING),
            default_attr("cache", CACHE, "none"),
            default_attr("evict", EVICT, "evict_normal"),
            default_attr("isVolatile", AttrKind::Bool, "false"),
        ],
        results: &[one("result")],
        segments: true,
        format: concat!(
            "$ptr (`,` $mask^)? (`,` $other^)? ",
            "oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) ",
            "attr-dict `:` custom<LoadType>($ptr, $mask, $other, $result)"
        ),
        customs: &[LOAD_TYPE],
        verify: Some(verify_load),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.store",
        operands: &[one("ptr"), one("value"), opt("mask")],
        attrs: &[
            default_attr("boundaryCheck", AttrKind::I32Array, "[]"),
            default_attr("cache", CACHE, "none"),
            default_attr("evict", EVICT, "evict_normal"),
        ],
        format: concat!(
            "$ptr `,` $value (`,` $mask^)? ",
            "oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) ",
            "attr-dict `:` custom<StoreType>($ptr, $value, $mask)"
        ),
        customs: &[STORE_TYPE],
        verify: Some(verify_store),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.atomic_rmw",
        operands: &[one("ptr"), one("val"), opt("mask")],
        attrs: &[
            hivm_ir::opspec::attr("atomic_rmw_op", RMW_OP),
            hivm_ir::opspec::attr("sem", SEM),
            hivm_ir::opspec::attr("scope", SCOPE),
        ],
        results: &[one("result")],
        format: concat!(
            "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` ",
            "functional-type(operands, results)"
        ),
        verify: Some(verify_atomic_rmw),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.atomic_cas",
        operands: &[one("ptr"), one("cmp"), one("val")],
        attrs: &[hivm_ir::opspec::attr("sem", SEM), hivm_ir::opspec::attr("scope", SCOPE)],
        results: &[one("result")],
        format: "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, results)",
        verify: Some(verify_atomic_cas),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.make_tensor_ptr",
        operands: &[
            one("base"),
            var("shape").of(Fixed::Int(64)),
            var("strides").of(Fixed::Int(64)),
            var("offsets").of(Fixed::Int(32)),
        ],
        attrs: &[hivm_ir::opspec::attr("order", AttrKind::I32Array)],
        results: &[one("result")],
        format: concat!(
            "$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` ",
            "custom<StrippedPtr>($result, $base)"
        ),
        customs: &[STRIPPED_PTR],
        traits: Traits::PURE,
        verify: Some(verify_make_tensor_ptr),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.advance",
        operands: &[one("ptr").like("result"), var("offsets").of(Fixed::Int(32))],
        results: &[one("result")],
        format: "$ptr `,` `[` $offsets `]` attr-dict `:` custom<StrippedPtr>($result)",
        customs: &[STRIPPED_PTR],
        traits: Traits::PURE,
        verify: Some(verify_advance),
        ..OpSpec::EMPTY
    },
];
