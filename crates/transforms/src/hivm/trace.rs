//! Following a memref back to where it comes from, as AscendNPU-IR's
//! `utils::tracebackMemRef*` helpers do: through casts, reshapes, views,
//! loop-carried values, `scf.if` results and bufferization's conversions.
//! Several HIVM passes decide by what they find (is a copy's source in GM,
//! which allocation does a load fill), so the walk, including where it
//! gives up, follows upstream's step for step.

use hivm_ir::{Ir, OpId, Value, ValueDef};

/// The op defining `v`, if it is a result.
pub fn def(ir: &Ir, v: Value) -> Option<OpId> {
    match ir.value_def(v) {
        ValueDef::Result { op, .. } => Some(op),
        _ => None,
    }
}

fn result_index(ir: &Ir, v: Value) -> usize {
    match ir.value_def(v) {
        ValueDef::Result { index, .. } => index as usize,
        _ => 0,
    }
}

/// Operand `i` of the terminator of the first block of region `r` of `op`.
fn yielded(ir: &Ir, op: OpId, r: usize, i: usize) -> Option<Value> {
    let region = *ir.regions(op).get(r)?;
    let block = *ir.region_blocks(region).first()?;
    let term = ir.block(block).last?;
    ir.operands(term).get(i).copied()
}

/// `memref.alloc`, `memref.alloca` or `memref_ext.alloc_workspace`.
pub fn is_alloc_like(ir: &Ir, v: Value) -> bool {
    def(ir, v).is_some_and(|o| matches!(ir.op_name(o), "memref.alloc" | "memref.alloca" | "memref_ext.alloc_workspace"))
}

/// Whether `v` is the result of an op named `name`.
pub fn defined_by(ir: &Ir, v: Value, name: &str) -> bool {
    def(ir, v).is_some_and(|o| ir.is_op(o, name))
}

/// One step back from `v` (upstream's `tracebackImpl`): the values it may
/// come from, empty when it cannot be followed further.
pub fn step(ir: &Ir, v: Value) -> Vec<Value> {
    let mut out = Vec::new();
    if let ValueDef::BlockArg { block, index } = ir.value_def(v)
        && let Some(owner) = ir.block(block).parent.and_then(|r| ir.region_parent(r))
    {
        let i = index as usize;
        if ir.is_op(owner, "scf.for") && i > 0 {
            let inits = &ir.operands(owner)[3..];
            if let Some(init) = inits.get(i - 1) {
                out.push(*init);
                out.extend(yielded(ir, owner, 0, i - 1));
            }
        }
        let in_before = ir.regions(owner).first().is_some_and(|r| ir.region_blocks(*r).first() == Some(&block));
        if ir.is_op(owner, "scf.while") && in_before {
            out.extend(ir.operands(owner).get(i).copied());
        }
    }
    let Some(op) = def(ir, v) else { return out };
    let n = result_index(ir, v);
    match ir.op_name(op) {
        "memref.cast"
        | "memref.collapse_shape"
        | "memref.expand_shape"
        | "memref.memory_space_cast"
        | "memref.reinterpret_cast"
        | "memref.reshape"
        | "memref.transpose" => out.push(ir.operand(op, 0)),
        "builtin.unrealized_conversion_cast" => out.extend(ir.operands(op).get(n).copied()),
        "scf.for" => {
            out.extend(ir.operands(op).get(3 + n).copied());
            out.extend(yielded(ir, op, 0, n));
        }
        "scf.if" => {
            out.extend(yielded(ir, op, 0, n));
            out.extend(yielded(ir, op, 1, n));
        }
        _ => {}
    }
    if !out.is_empty() {
        return out;
    }
    match ir.op_name(op) {
        "memref.view" | "memref.subview" | "bufferization.to_tensor" => out.push(ir.operand(op, 0)),
        "bufferization.to_memref" | "bufferization.to_buffer" => {
            let t = ir.operand(op, 0);
            let mut seen = Vec::new();
            out.push(match to_tensor_behind(ir, t, &mut seen) {
                Some(tt) => ir.operand(tt, 0),
                None => t,
            });
        }
        _ => {}
    }
    out
}

/// The first `bufferization.to_tensor` found depth-first through the
/// operands of the ops defining `t` (upstream's `canTraceToMemRefToTensor`).
fn to_tensor_behind(ir: &Ir, t: Value, seen: &mut Vec<OpId>) -> Option<OpId> {
    let op = def(ir, t)?;
    if seen.contains(&op) {
        return None;
    }
    seen.push(op);
    if ir.is_op(op, "bufferization.to_tensor") {
        return Some(op);
    }
    ir.operands(op).to_vec().into_iter().find_map(|o| to_tensor_behind(ir, o, seen))
}

/// Follows `v` back until every value found satisfies `target`, or one
/// cannot be followed (then the walk stops with what it has, as upstream's
/// `tracebackMemRefVecByTargetFn`).
pub fn back_until(ir: &Ir, v: Value, target: &dyn Fn(&Ir, Value) -> bool) -> Vec<Value> {
    let mut vals = vec![v];
    for _ in 0..=257 {
        let Some(pos) = vals.iter().position(|x| !target(ir, *x)) else { break };
        let up = step(ir, vals[pos]);
        if up.is_empty() {
            break;
        }
        vals.remove(pos);
        vals.extend(up);
    }
    vals
}

/// `tracebackMemRefVec`: back to allocations.
pub fn back_to_allocs(ir: &Ir, v: Value) -> Vec<Value> {
    back_until(ir, v, &is_alloc_like)
}

/// `tracebackMemRef`: the first value found going back to allocations, or
/// `v` itself.
pub fn back_to_alloc(ir: &Ir, v: Value) -> Value {
    back_to_allocs(ir, v).first().copied().unwrap_or(v)
}

/// `tracebackMemRefAllocAndAlias`: the allocations and reshapes (collapse,
/// expand) behind `v`, plus the allocations behind those reshapes.
pub fn allocs_and_reshapes(ir: &Ir, v: Value) -> Vec<Value> {
    let mut vals = back_until(ir, v, &|ir, x| {
        is_alloc_like(ir, x) || defined_by(ir, x, "memref.collapse_shape") || defined_by(ir, x, "memref.expand_shape")
    });
    let mut roots = Vec::new();
    for alias in vals.iter().filter(|a| !is_alloc_like(ir, **a)) {
        for root in back_to_allocs(ir, *alias) {
            if is_alloc_like(ir, root) && !vals.contains(&root) && !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    vals.extend(roots);
    vals
}
