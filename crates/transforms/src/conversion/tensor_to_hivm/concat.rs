//! `tensor.concat` -> `hivm.hir.vconcat` into a `tensor.empty` of the
//! reified result size: the result type's static sizes, else the first
//! input's size (off the concatenated dimension) or the sum of the inputs'
//! (on it). On memory-based targets an `hfusion.insert_slice_source_index`
//! mark among the result's transitive users moves onto the new op.

use std::collections::HashMap;

use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, Value};

use super::Cx;
use super::sizes::{Size, dim, empty, sum};
use crate::conversion::to_hfusion::replace;

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId) -> bool {
    let ir = &mut *cx.ir;
    let inputs = ir.operands(op).to_vec();
    let Some(&first) = inputs.first() else { return false };
    let result = ir.results(op)[0];
    let rt = ir.value_type(result);
    let (Some(shape), elem) =
        (ir.type_data(rt).shape().map(<[i64]>::to_vec), hivm_dialects::util::element_or_self(ir, rt))
    else {
        return false;
    };
    let Some(axis) = hivm_dialects::util::int_attr(ir, op, "dim").and_then(|d| usize::try_from(d).ok()) else {
        return false;
    };
    let same_rank = inputs.iter().all(|v| ir.type_data(ir.value_type(*v)).rank() == shape.len());
    if axis >= shape.len() || !same_rank {
        return false;
    }
    let mut sizes = vec![Size::Static(0); shape.len()];
    for (i, n) in shape.iter().enumerate() {
        if i == axis {
            continue;
        }
        sizes[i] = match (*n, inferred(ir, &inputs, i)) {
            (n, _) if n != DYNAMIC => Size::Static(n),
            (_, Some(m)) => Size::Static(m),
            _ => Size::Dynamic(dim(ir, op, first, i)),
        };
    }
    sizes[axis] = if shape[axis] != DYNAMIC {
        Size::Static(shape[axis])
    } else {
        let parts: Vec<Size> = inputs
            .iter()
            .map(|v| match ir.type_data(ir.value_type(*v)).shape().map(|s| s[axis]) {
                Some(n) if n != DYNAMIC => Size::Static(n),
                _ => Size::Dynamic(dim(ir, op, *v, axis)),
            })
            .collect();
        sum(ir, op, &parts)
    };
    let dst = empty(ir, op, &sizes, elem);
    let i64t = ir.int_type(64);
    let axis_attr = ir.int_attr(axis as i128, i64t);
    let seg_free = vec![("dim", axis_attr)];
    let loc = ir.loc(op);
    let mut operands = inputs.clone();
    operands.push(dst);
    let new = hivm_ir::builder::Builder::new(ir, hivm_ir::builder::InsertPoint::Before(op)).op(
        "hivm.hir.vconcat",
        &operands,
        &[rt],
        seg_free,
        loc,
    );
    if !cx.regbase
        && let Some(index) = source_index(ir, op)
    {
        let a = ir.int_attr(index as i128, i64t);
        ir.set_attr(new, "hivm.insert_slice_source_index", a);
    }
    let r = ir.result(new, 0);
    replace(ir, op, &[r], cx.map);
    true
}

/// `tensor.concat`'s inferred size of dimension `i` (off the axis): the
/// first static size among the inputs.
fn inferred(ir: &Ir, inputs: &[Value], i: usize) -> Option<i64> {
    inputs.iter().filter_map(|v| ir.type_data(ir.value_type(*v)).shape().map(|s| s[i])).find(|n| *n != DYNAMIC)
}

/// Upstream's `traceInsertSliceSourceIndex`: depth first through the users
/// of `op`'s results, the first `annotation.mark` carrying the index (the
/// mark is erased).
fn source_index(ir: &mut Ir, op: OpId) -> Option<i64> {
    let scope = ir.parent_op(op)?;
    let mut users: HashMap<Value, Vec<OpId>> = HashMap::new();
    ir.walk(scope, &mut |o| {
        for v in ir.operands(o) {
            users.entry(*v).or_default().push(o);
        }
    });
    let mut seen = std::collections::HashSet::new();
    let found = trace(ir, op, &users, &mut seen)?;
    let value = ir.get_attr(found, "hfusion.insert_slice_source_index").and_then(|a| ir.as_int(a))?;
    ir.erase_op(found);
    i64::try_from(value).ok()
}

fn trace(
    ir: &Ir,
    op: OpId,
    users: &HashMap<Value, Vec<OpId>>,
    seen: &mut std::collections::HashSet<OpId>,
) -> Option<OpId> {
    if !seen.insert(op) {
        return None;
    }
    if ir.is_op(op, "annotation.mark") && ir.get_attr(op, "hfusion.insert_slice_source_index").is_some() {
        return Some(op);
    }
    for r in ir.results(op) {
        for u in users.get(r).into_iter().flatten() {
            if let Some(found) = trace(ir, *u, users, seen) {
                return Some(found);
            }
        }
    }
    None
}
