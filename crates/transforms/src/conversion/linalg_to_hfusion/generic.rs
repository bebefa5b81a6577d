//! `linalg.generic`: the 1-D `index_cast(linalg.index)` fill is
//! `hfusion.arange`; a generic marked `GenericAtomicRMW = "<kind>"` (a
//! masked atomic read-modify-write of global memory, operands: destination,
//! values[, new values for `cas`]) is `hfusion.atomic_rmw`, `atomic_cas` or
//! `atomic_xchg`.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, Ir, OpId, TypeData, Value};

use super::Cx;
use crate::conversion::to_hfusion::replace;

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    if cx.ir.get_attr(op, "GenericAtomicRMW").is_some() {
        return atomic(cx, op);
    }
    Ok(arange(cx, op))
}

fn ins_outs(ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>) {
    (hivm_dialects::util::segment(ir, op, 0).to_vec(), hivm_dialects::util::segment(ir, op, 1).to_vec())
}

/// The single block of `op`'s body.
fn body(ir: &Ir, op: OpId) -> Option<hivm_ir::BlockId> {
    let region = *ir.regions(op).first()?;
    match ir.region_blocks(region) {
        [b] => Some(*b),
        _ => None,
    }
}

/// Whether `v` is an operand of an op nested in `op`.
fn used_in(ir: &Ir, op: OpId, v: Value) -> bool {
    let mut used = false;
    ir.walk(op, &mut |o| used |= o != op && ir.operands(o).contains(&v));
    used
}

/// Upstream's arange match: no inputs, one output written whole with
/// parallel loops and an identity map, the body ignoring the output's
/// element and yielding `index_cast(linalg.index)`, rank 1.
fn is_arange(ir: &Ir, op: OpId) -> Option<Value> {
    let (ins, outs) = ins_outs(ir, op);
    let [init] = outs[..] else { return None };
    if !ins.is_empty() {
        return None;
    }
    let parallel = match ir.get_attr(op, "iterator_types").map(|a| ir.attr_data(a)) {
        Some(AttrData::Array(its)) => its
            .iter()
            .all(|a| matches!(ir.attr_data(*a), AttrData::Opaque { body, .. } if body == "iterator_type<parallel>")),
        _ => false,
    };
    let identity = match ir.get_attr(op, "indexing_maps").map(|a| ir.attr_data(a)) {
        Some(AttrData::Array(maps)) => maps.first().is_some_and(|m| match ir.attr_data(*m) {
            AttrData::AffineMap(m) => {
                m.num_symbols == 0 && m.results.len() == m.num_dims as usize && {
                    m.results.iter().enumerate().all(|(i, e)| *e == hivm_ir::affine::AffineExpr::Dim(i as u32))
                }
            }
            _ => false,
        }),
        _ => false,
    };
    if !parallel || !identity {
        return None;
    }
    let block = body(ir, op)?;
    let out = *ir.block_args(block).first()?;
    let mut has_index = false;
    ir.walk(op, &mut |o| has_index |= ir.is_op(o, "linalg.index"));
    if !has_index || used_in(ir, op, out) {
        return None;
    }
    let ty = ir.value_type(init);
    let (rank, elem) = match ir.type_data(ty) {
        TypeData::RankedTensor { shape, elem, .. } => (shape.len(), *elem),
        TypeData::MemRef { shape, elem, .. } => (shape.len(), *elem),
        _ => return None,
    };
    if rank != 1 || !matches!(ir.type_data(elem), TypeData::Integer { .. } | TypeData::Float(_)) {
        return None;
    }
    let yield_op = ir.block_ops(block).find(|o| ir.is_op(*o, "linalg.yield"))?;
    let cast = ir.defining_op(*ir.operands(yield_op).first()?)?;
    if !ir.is_op(cast, "arith.index_cast") {
        return None;
    }
    let index = ir.defining_op(ir.operands(cast)[0])?;
    ir.is_op(index, "linalg.index").then_some(init)
}

/// `hfusion.arange offset[0] strides[1] outs(init)` (the stride of a 1-D
/// init is 1).
fn arange(cx: &mut Cx<'_>, op: OpId) -> bool {
    let ir = &mut *cx.ir;
    let Some(init) = is_arange(ir, op) else { return false };
    let (loc, index) = (ir.loc(op), ir.index_type());
    let constant = |ir: &mut Ir, v: i128| {
        let a = ir.int_attr(v, index);
        let c = Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[index], vec![("value", a)], loc);
        ir.result(c, 0)
    };
    let one = constant(ir, 1);
    let zero = constant(ir, 0);
    let new = hivm_dialects::hfusion::build_arange(ir, InsertPoint::Before(op), Some(zero), &[one], init, loc);
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    true
}

/// The atomic kind named by the end of the marker, in upstream's order.
fn atomic_kind(kind: &str) -> Option<&'static str> {
    Some(if kind.ends_with("add") {
        "add"
    } else if kind.ends_with("max") {
        if kind == "umax" { "umax" } else { "max" }
    } else if kind.ends_with("min") {
        if kind == "umin" { "umin" } else { "min" }
    } else if kind.ends_with("and") {
        "and"
    } else if kind.ends_with("xor") {
        "xor"
    } else if kind.ends_with("or") {
        "or"
    } else if kind.ends_with("cas") {
        "cas"
    } else if kind.ends_with("exch") {
        "xchg"
    } else {
        return None;
    })
}

fn atomic(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let ir = &mut *cx.ir;
    let loc = ir.loc(op);
    let marker = match ir.get_attr(op, "GenericAtomicRMW").map(|a| ir.attr_data(a)) {
        Some(AttrData::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => return Ok(false),
    };
    let Some(kind) = atomic_kind(&marker) else {
        return Err(Diagnostic::error(loc, format!("'linalg.generic' op unsupported atomic operation: {marker}")));
    };
    let (ins, outs) = ins_outs(ir, op);
    if outs.len() > 1 {
        // Upstream returns the old values only on register-based targets,
        // through an op of the old type that it then replaces.
        return Err(Diagnostic::error(loc, "an atomic linalg.generic returning the old values is not supported"));
    }
    if !ir.results(op).is_empty() {
        return Err(Diagnostic::error(loc, "an atomic linalg.generic on tensors is not supported"));
    }
    let needed = if kind == "cas" { 3 } else { 2 };
    if ins.len() < needed {
        return Err(Diagnostic::error(loc, format!("an atomic '{marker}' generic needs {needed} inputs")));
    }
    let mut b = Builder::new(ir, InsertPoint::Before(op));
    match kind {
        "cas" => b.op("hfusion.atomic_cas", &[ins[1], ins[2], ins[0]], &[], Vec::new(), loc),
        "xchg" => b.op("hfusion.atomic_xchg", &[ins[1], ins[0]], &[], Vec::new(), loc),
        _ if cx.regbase => {
            let k = crate::conversion::to_hfusion::enum_attr(b.ir, "hfusion", "atomic_kind", kind);
            hivm_dialects::linalg::build_elementwise(
                b.ir,
                InsertPoint::Before(op),
                "hfusion.store",
                &ins[1..2],
                &ins[..1],
                vec![("atomic_kind", k)],
                loc,
            )
            .map_err(|e| Diagnostic::error(loc, e))?
        }
        _ => {
            let k = crate::conversion::to_hfusion::enum_attr(b.ir, "hfusion", "atomic_kind", kind);
            b.op("hfusion.atomic_rmw", &[ins[1], ins[0]], &[], vec![("atomic_kind", k)], loc)
        }
    };
    ir.erase_op(op);
    Ok(true)
}
