//! `tt.load` and `tt.store` on blocks of pointers: a local buffer filled by
//! `memref.copy` from the block's `reinterpret_cast` (a `subview` of both
//! when masked; `other` fills the buffer first when the mask may be partial),
//! and `materialize_in_destination` into the block (of an `extract_slice`
//! when masked).

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{OpId, TypeData, Value};

use super::Cx;
use super::address::{pointer, view};
use super::emit::{Ofr, element_of, shape_of};
use super::mask::mask;
use super::scalar::splat_scalar;

fn unsupported(cx: &Cx<'_>, op: OpId, what: &str) -> Diagnostic {
    Diagnostic::error(
        cx.ir.loc(op),
        format!("'{}' op {what} is not supported by triton-to-linalg yet", cx.ir.op_name(op)),
    )
}

fn element_shape(cx: &Cx<'_>, t: hivm_ir::Type) -> Vec<i64> {
    shape_of(cx.ir, t)
}

fn is_i1(cx: &Cx<'_>, t: hivm_ir::Type) -> bool {
    let e = element_of(cx.ir, t);
    cx.ir.type_data(e).int_width() == Some(1)
}

/// The scalar every element of `other` (old IR) equals, converted.
fn other_scalar(cx: &mut Cx<'_>, op: OpId, other: Value) -> Result<Value, Diagnostic> {
    splat_scalar(cx, other).ok_or_else(|| unsupported(cx, op, "with an 'other' value that is not a splat"))
}

/// Whether the box covers the whole block (no subview needed, as upstream skips it).
fn covers(m: &super::mask::MaskState, shape: &[i64]) -> bool {
    m.offsets.iter().all(|o| *o == Ofr::Const(0)) && m.dims.iter().zip(shape).all(|(d, s)| *d == Ofr::Const(*s))
}

pub fn load(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let operands = cx.ir.operands(op).to_vec();
    let result = cx.ir.result(op, 0);
    let rt = cx.ir.value_type(result);
    if is_i1(cx, rt) {
        return Err(unsupported(cx, op, "of i1 elements"));
    }
    let st = pointer(cx, operands[0])?;
    let block = view(cx, operands[0])?;
    if st.rank() == 0 {
        if operands.len() > 1 {
            return Err(unsupported(cx, op, "of a scalar with a mask"));
        }
        let mut em = cx.em();
        let zero = em.index_const(0);
        let v = em.value1("memref.load", &[block, zero], rt, vec![]);
        cx.map.insert(result, v);
        return Ok(());
    }
    let elem = element_of(cx.ir, rt);
    let shape = shape_of(cx.ir, rt);
    let alloc = cx.em().alloc(&shape, elem);
    if operands.len() > 1 {
        let m = mask(cx, operands[1])?;
        if operands.len() > 2 {
            let fill = other_scalar(cx, op, operands[2])?;
            // Fill first unless the box is known to cover the block.
            let mut em = cx.em();
            let mut cond: Option<Value> = None;
            let mut always = false;
            for (d, size) in m.dims.iter().copied().zip(shape.iter().copied()) {
                match d {
                    Ofr::Const(c) if c >= size => continue,
                    Ofr::Const(_) => always = true,
                    Ofr::Val(v) => {
                        let full = em.index_const(size);
                        let i1 = em.ir.int_type(1);
                        let i64t = em.ir.int_type(64);
                        let slt = em.ir.int_attr(2, i64t);
                        let c = em.value1("arith.cmpi", &[v, full], i1, vec![("predicate", slt)]);
                        cond = Some(match cond {
                            None => c,
                            Some(prev) => em.value1("arith.ori", &[prev, c], i1, vec![]),
                        });
                    }
                }
            }
            if always {
                em.fill(fill, alloc);
            } else if let Some(c) = cond {
                super::control::if_then(&mut em, c, |inner| {
                    inner.fill(fill, alloc);
                });
            }
        }
        let mut em = cx.em();
        if covers(&m, &shape) {
            em.copy(block, alloc);
        } else {
            let src = em.subview(block, &m.offsets, &m.dims);
            let dst = em.subview(alloc, &m.offsets, &m.dims);
            em.copy(src, dst);
        }
    } else {
        cx.em().copy(block, alloc);
    }
    let t = cx.em().make_tensor(alloc);
    cx.map.insert(result, t);
    Ok(())
}

pub fn store(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let operands = cx.ir.operands(op).to_vec();
    let vt = cx.ir.value_type(operands[1]);
    if is_i1(cx, vt) {
        return Err(unsupported(cx, op, "of i1 elements"));
    }
    let st = pointer(cx, operands[0])?;
    let value = cx.lookup(operands[1])?;
    if st.rank() == 0 {
        if operands.len() > 2 {
            return Err(unsupported(cx, op, "of a scalar with a mask"));
        }
        // A one-element tensor written into a one-element view, as upstream stores a scalar.
        let one = cx.em().splat(value, &[1]);
        let block = view(cx, operands[0])?;
        cx.em().materialize(one, block);
        return Ok(());
    }
    let block = view(cx, operands[0])?;
    if !matches!(cx.ir.type_data(vt), TypeData::RankedTensor { .. }) {
        return Err(unsupported(cx, op, "of a scalar into a block"));
    }
    let shape = element_shape(cx, vt);
    if operands.len() > 2 && !covers(&mask(cx, operands[2])?, &shape) {
        let m = mask(cx, operands[2])?;
        let mut em = cx.em();
        let slice = em.extract_slice(value, &m.offsets, &m.dims);
        let dst = em.subview(block, &m.offsets, &m.dims);
        em.materialize(slice, dst);
    } else {
        cx.em().materialize(value, block);
    }
    Ok(())
}
