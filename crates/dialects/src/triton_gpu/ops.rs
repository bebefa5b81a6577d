//! TritonGPU ops: layout conversion and the shared-memory ops
//! (`local_alloc`, `local_load`, `local_store`, `local_dealloc`) with the
//! descriptor views `memdesc_subslice`, `memdesc_index`, `memdesc_trans`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, attr, one, opt, opt_attr};
use hivm_ir::{Ir, OpId, Traits, Type, TypeData};

use super::attrs::{MemDesc, memdesc_parts};
use crate::triton::types::{C, scalar_of, tensor, text_of};

type R = Result<(), VerifyError>;

const TOKEN: Fixed = Fixed::Dialect { dialect: "ttg", body: "async.token", summary: "async token type" };

fn memdesc(ir: &Ir, t: Type) -> Option<MemDesc> {
    match ir.type_data(t) {
        TypeData::Opaque { dialect, body } if dialect == "ttg" => memdesc_parts(body).ok(),
        _ => None,
    }
}

fn check(ir: &Ir, op: OpId, checks: &[(usize, bool, C)]) -> R {
    for (i, operand, c) in checks {
        let vals = if *operand { ir.operands(op) } else { ir.results(op) };
        let Some(v) = vals.get(*i) else { continue };
        let t = ir.value_type(*v);
        if !c.holds(ir, t) {
            let what = if *operand { "operand" } else { "result" };
            return Err(format!("{what} #{i} must be {}, but got '{}'", c.summary(), text_of(ir, t)).into());
        }
    }
    Ok(())
}

/// A tensor and a descriptor agree on element type and shape.
fn same_data(ir: &Ir, tensor_ty: Type, desc_ty: Type) -> R {
    let (Some((shape, elem, _)), Some(m)) = (tensor(ir, tensor_ty), memdesc(ir, desc_ty)) else { return Ok(()) };
    if text_of(ir, elem) != m.elem {
        return Err("result element type must match desc element type".into());
    }
    if shape != m.shape.as_slice() {
        return Err("result shape must match desc shape".into());
    }
    Ok(())
}

fn verify_convert_layout(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::Tensor), (0, false, C::Tensor)])?;
    let (s, r) = (ir.value_type(ir.operands(op)[0]), ir.value_type(ir.results(op)[0]));
    if tensor(ir, s).map(|x| x.0.to_vec()) != tensor(ir, r).map(|x| x.0.to_vec()) {
        return Err("requires the same shape for all operands and results".into());
    }
    if scalar_of(ir, s) != scalar_of(ir, r) {
        return Err("requires the same element type for all operands and results".into());
    }
    Ok(())
}

fn verify_local_alloc(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::Tensor), (0, false, C::MemDesc)])?;
    let res = ir.value_type(ir.results(op)[0]);
    match ir.operands(op).first() {
        None => {
            if memdesc(ir, res).is_some_and(|m| !m.mutable) {
                return Err("uninitialized alloc must have a mutable memdesc type".into());
            }
            Ok(())
        }
        Some(src) => same_data(ir, ir.value_type(*src), res),
    }
}

fn verify_local_dealloc(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::MemDesc)])
}

fn verify_local_load(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::MemDesc), (0, false, C::Tensor)])?;
    same_data(ir, ir.value_type(ir.results(op)[0]), ir.value_type(ir.operands(op)[0]))
}

fn verify_local_store(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::Tensor), (1, true, C::MemDesc)])?;
    let dst = ir.value_type(ir.operands(op)[1]);
    if memdesc(ir, dst).is_some_and(|m| !m.mutable) {
        return Err("Cannot store into immutable memory".into());
    }
    same_data(ir, ir.value_type(ir.operands(op)[0]), dst)
}

fn verify_subslice(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::MemDesc), (0, false, C::MemDesc)])?;
    let (Some(src), Some(res)) =
        (memdesc(ir, ir.value_type(ir.operands(op)[0])), memdesc(ir, ir.value_type(ir.results(op)[0])))
    else {
        return Ok(());
    };
    let offsets = crate::triton::verify_i32_array(ir, op, "offsets");
    if offsets.len() != src.shape.len() {
        return Err("offsets must have the same rank as the input".into());
    }
    if res.shape.len() != src.shape.len() {
        return Err("result rank must equal the input rank".into());
    }
    for ((o, r), s) in offsets.iter().zip(&res.shape).zip(&src.shape) {
        if *o < 0 || o + r > *s {
            return Err("offsets plus result shape must be within the input shape".into());
        }
    }
    if src.elem != res.elem {
        return Err("result element type must match desc element type".into());
    }
    Ok(())
}

fn verify_index(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::MemDesc), (0, false, C::MemDesc)])?;
    let (Some(src), Some(res)) =
        (memdesc(ir, ir.value_type(ir.operands(op)[0])), memdesc(ir, ir.value_type(ir.results(op)[0])))
    else {
        return Ok(());
    };
    if res.shape.as_slice() != &src.shape[1.min(src.shape.len())..] {
        return Err("result shape must be the input shape without its first dimension".into());
    }
    Ok(())
}

fn verify_trans(ir: &Ir, op: OpId) -> R {
    check(ir, op, &[(0, true, C::MemDesc), (0, false, C::MemDesc)])?;
    let (Some(src), Some(res)) =
        (memdesc(ir, ir.value_type(ir.operands(op)[0])), memdesc(ir, ir.value_type(ir.results(op)[0])))
    else {
        return Ok(());
    };
    let order = crate::triton::verify_i32_array(ir, op, "order");
    let rank = src.shape.len();
    let mut seen = vec![false; rank];
    if order.len() != rank
        || !order.iter().all(|&d| d >= 0 && (d as usize) < rank && !std::mem::replace(&mut seen[d as usize], true))
    {
        return Err("order must be a permutation of the input's dimensions".into());
    }
    let want: Vec<i64> = order.iter().map(|&d| src.shape[d as usize]).collect();
    if res.shape != want {
        return Err("result shape must be the permuted input shape".into());
    }
    Ok(())
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ttg.convert_layout",
        operands: &[one("src")],
        results: &[one("result")],
        format: "$src attr-dict `:` type($src) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_convert_layout),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.local_alloc",
        operands: &[opt("src")],
        attrs: &[opt_attr("alignment", AttrKind::Int(32))],
        results: &[one("result")],
        format: "($src^)? attr-dict `:` functional-type(operands, results)",
        verify: Some(verify_local_alloc),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.local_dealloc",
        operands: &[one("src")],
        format: "$src attr-dict `:` type($src)",
        verify: Some(verify_local_dealloc),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.local_load",
        operands: &[one("src"), opt("token").of(TOKEN)],
        results: &[one("result")],
        format: "$src (`token` $token^)? attr-dict `:` type($src) `->` type($result)",
        verify: Some(verify_local_load),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.local_store",
        operands: &[one("src"), one("dst")],
        format: "$src `,` $dst attr-dict `:` type($src) `->` type($dst)",
        verify: Some(verify_local_store),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.memdesc_subslice",
        operands: &[one("src")],
        attrs: &[attr("offsets", AttrKind::I32Array)],
        results: &[one("result")],
        format: "$src `[` custom<Offsets>($offsets) `]` attr-dict `:` type($src) `->` type($result)",
        customs: &[crate::triton::OFFSETS],
        traits: Traits::PURE,
        verify: Some(verify_subslice),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.memdesc_index",
        operands: &[one("src"), one("index").of(Fixed::Int(32))],
        results: &[one("result")],
        format: "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_index),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ttg.memdesc_trans",
        operands: &[one("src")],
        attrs: &[attr("order", AttrKind::I32Array)],
        results: &[one("result")],
        format: "$src attr-dict `:` type($src) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_trans),
        ..OpSpec::EMPTY
    },
];
