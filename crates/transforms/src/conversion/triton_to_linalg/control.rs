//! Region ops and custom ops. `scf.for` carries a block of pointers as its
//! linear start offset (an `index`), since the block's shape and strides
//! must not change between iterations; other region ops are copied with
//! their bodies converted.

use hivm_ir::builder::InsertPoint;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{OpId, OperationState, Type, Value};

use super::Cx;
use super::address::{PtrState, is_pointer_like, pointer};
use super::emit::{Emitter, Ofr};

/// `scf.if %cond { body } {hivm.unlikely_condition}`.
pub fn if_then(em: &mut Emitter<'_>, cond: Value, body: impl FnOnce(&mut Emitter<'_>)) {
    let then = em.ir.new_region();
    let block = em.ir.create_block();
    em.ir.push_block(then, block);
    let otherwise = em.ir.new_region();
    {
        let mut inner = Emitter::new(em.ir, InsertPoint::End(block), em.loc);
        body(&mut inner);
        inner.op("scf.yield", &[], &[], vec![]);
    }
    let unit = em.ir.unit_attr();
    let op = em.op_with_regions("scf.if", &[cond], &[], vec![], vec![then, otherwise]);
    em.ir.set_attr(op, "hivm.unlikely_condition", unit);
}

/// A custom op: tensors as converted; a pointer operand as memory — a scalar
/// pointer its argument's `memref<?xT>`, a block of pointers its
/// `reinterpret_cast` view (as upstream's type-converted operands are).
pub fn custom(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    for v in cx.ir.operands(op).to_vec() {
        let t = cx.ir.value_type(v);
        if !is_pointer_like(cx, t) {
            continue;
        }
        if cx.ir.type_data(t).is_tensor() {
            let view = super::address::view(cx, v)?;
            cx.map.insert(v, view);
            continue;
        }
        let st = pointer(cx, v)?;
        if st.base != Ofr::Const(0) {
            return Err(cx.unsupported(op, "with a pointer operand at an offset from its argument"));
        }
        cx.map.insert(v, st.source);
    }
    cx.clone_mapped(op)
}

fn total_offset(cx: &mut Cx<'_>, st: &PtrState) -> Value {
    let mut em = cx.em();
    let mut total = st.base;
    for o in &st.offsets {
        total = em.add(total, *o);
    }
    em.value_of(total)
}

/// How a block of pointers crosses a loop, as upstream carries it: its view
/// (a `reinterpret_cast` with run-time offset and strides) among the
/// iteration arguments, and one offset per dimension appended after them.
/// A scalar pointer crosses as its offset alone.
/// The view crosses only when the loop argument or result is accessed as it
/// is (a load, a store, a custom op); a pointer only advanced or reshaped in
/// the loop crosses as its offsets, as upstream's canonicalization leaves it
/// once the unused view arguments are gone.
#[derive(Clone, Debug)]
pub struct Carried {
    pub init: PtrState,
    /// The strides as values defined before the loop.
    strides: Vec<Value>,
    /// Whether the view is among the iteration arguments.
    view: bool,
}

/// Whether pointer `v` is used other than to derive new pointers from it.
fn accessed(cx: &Cx<'_>, v: Value, within: OpId) -> bool {
    let mut found = false;
    cx.ir.walk(within, &mut |o| {
        if found || !cx.ir.operands(o).contains(&v) {
            return;
        }
        let derives =
            matches!(cx.ir.op_name(o), "tt.addptr" | "tt.expand_dims" | "tt.broadcast") && cx.ir.operand(o, 0) == v;
        found = !derives;
    });
    found
}

/// The per-dimension offsets of `st` (its scalar part in the first).
fn dim_offsets(cx: &mut Cx<'_>, st: &PtrState) -> Vec<Value> {
    let mut em = cx.em();
    let mut offs = st.offsets.clone();
    offs[0] = em.add(st.base, offs[0]);
    offs.into_iter().map(|o| em.value_of(o)).collect()
}

/// The view of `st` starting at `total` with every stride a run-time value,
/// so that each iteration's view has the loop argument's type.
fn dynamic_view(cx: &mut Cx<'_>, st: &PtrState, total: Value, strides: &[Value]) -> Value {
    let strides: Vec<Ofr> = strides.iter().map(|v| Ofr::Val(*v)).collect();
    cx.em().reinterpret_cast(st.source, Ofr::Val(total), &st.sizes, &strides)
}

pub fn for_loop(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let operands = cx.ir.operands(op).to_vec();
    let results = cx.ir.results(op).to_vec();
    let body = cx.ir.single_block(cx.ir.regions(op)[0]).ok_or_else(|| cx.unsupported(op, "with several blocks"))?;
    let old_args = cx.ir.block_args(body).to_vec();
    let mut new_operands = Vec::new();
    for v in &operands[..3] {
        new_operands.push(cx.lookup(*v)?);
    }
    let mut carried: Vec<Option<Carried>> = Vec::new();
    let mut appended: Vec<Value> = Vec::new();
    for v in &operands[3..] {
        if !is_pointer_like(cx, cx.ir.value_type(*v)) {
            new_operands.push(cx.lookup(*v)?);
            carried.push(None);
            continue;
        }
        let st = pointer(cx, *v)?;
        if st.rank() == 0 {
            new_operands.push(total_offset(cx, &st));
            carried.push(Some(Carried { init: st, strides: vec![], view: true }));
            continue;
        }
        let strides: Vec<Value> = {
            let mut em = cx.em();
            st.strides.iter().map(|s| em.value_of(*s)).collect()
        };
        let i = carried.len();
        let parent = cx.ir.parent_op(op).unwrap_or(op);
        let with_view = accessed(cx, old_args[i + 1], op) || accessed(cx, results[i], parent);
        if with_view {
            let total = total_offset(cx, &st);
            new_operands.push(dynamic_view(cx, &st, total, &strides));
        }
        let offsets = dim_offsets(cx, &st);
        appended.extend(offsets);
        carried.push(Some(Carried { init: st, strides, view: with_view }));
    }
    let n_orig = new_operands.len() - 3;
    new_operands.extend(appended);
    let types: Vec<Type> = new_operands[3..].iter().map(|v| cx.ir.value_type(*v)).collect();
    let region = cx.ir.new_region();
    let block = cx.ir.create_block();
    cx.ir.push_block(region, block);
    let iv_t = cx.ir.value_type(old_args[0]);
    let iv = cx.ir.add_block_arg(block, iv_t, None);
    cx.map.insert(old_args[0], iv);
    let args: Vec<Value> = types.iter().map(|t| cx.ir.add_block_arg(block, *t, None)).collect();
    for (i, st) in carried_states(&carried, &args, n_orig).into_iter().enumerate() {
        let old = old_args[i + 1];
        match st {
            Carry::Pointer(st) => {
                cx.ptrs.insert(old, st);
            }
            Carry::Value(v) => {
                cx.map.insert(old, v);
            }
        }
    }
    cx.loops.insert(op, carried.clone());
    cx.convert_block(body, block)?;
    let mut st = OperationState::new(cx.ir.op(op).name, cx.ir.loc(op));
    st.operands = new_operands;
    st.result_types = types;
    st.properties = cx.ir.op(op).properties;
    st.regions = vec![region];
    let attrs = cx.ir.op(op).attrs;
    let new = hivm_ir::builder::Builder::new(cx.ir, cx.ip).create(st);
    cx.ir.op_mut(new).attrs = attrs;
    let outs = cx.ir.results(new).to_vec();
    for (r, st) in results.iter().zip(carried_states(&carried, &outs, n_orig)) {
        match st {
            Carry::Pointer(st) => {
                cx.ptrs.insert(*r, st);
            }
            Carry::Value(v) => {
                cx.map.insert(*r, v);
            }
        }
    }
    Ok(())
}

/// What an old iteration argument (or result) becomes.
enum Carry {
    Value(Value),
    Pointer(PtrState),
}

/// What each old iteration argument stands for among the new loop's block
/// arguments (or results) `vals`: the first `n_orig` in the old order (a view
/// only when carried), then the offsets of the blocks of pointers.
fn carried_states(carried: &[Option<Carried>], vals: &[Value], n_orig: usize) -> Vec<Carry> {
    let mut cur = 0;
    let mut next = n_orig;
    carried
        .iter()
        .map(|c| {
            let Some(c) = c else {
                cur += 1;
                return Carry::Value(vals[cur - 1]);
            };
            if c.init.rank() == 0 {
                cur += 1;
                return Carry::Pointer(PtrState { base: Ofr::Val(vals[cur - 1]), view: None, ..c.init.clone() });
            }
            let view = c.view.then(|| {
                cur += 1;
                vals[cur - 1]
            });
            let offsets: Vec<Ofr> = vals[next..next + c.init.rank()].iter().map(|v| Ofr::Val(*v)).collect();
            next += c.init.rank();
            Carry::Pointer(PtrState {
                base: Ofr::Const(0),
                offsets,
                strides: c.strides.iter().map(|v| Ofr::Val(*v)).collect(),
                view,
                ..c.init.clone()
            })
        })
        .collect()
}

/// `scf.if`, `scf.while`, `scf.execute_region`: copied, bodies converted.
pub fn region_op(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    for v in cx.ir.operands(op).iter().chain(cx.ir.results(op)) {
        if is_pointer_like(cx, cx.ir.value_type(*v)) {
            return Err(cx.unsupported(op, "carrying pointers"));
        }
    }
    let operands: Vec<Value> =
        cx.ir.operands(op).to_vec().into_iter().map(|v| cx.lookup(v)).collect::<Result<_, _>>()?;
    let results = cx.ir.results(op).to_vec();
    let mut regions = Vec::new();
    for r in cx.ir.regions(op).to_vec() {
        let nr = cx.ir.new_region();
        for b in cx.ir.region_blocks(r).to_vec() {
            let nb = cx.ir.create_block();
            cx.ir.push_block(nr, nb);
            for a in cx.ir.block_args(b).to_vec() {
                let t = cx.ir.value_type(a);
                if is_pointer_like(cx, t) {
                    return Err(cx.unsupported(op, "carrying pointers"));
                }
                let na = cx.ir.add_block_arg(nb, t, None);
                cx.map.insert(a, na);
            }
            cx.convert_block(b, nb)?;
        }
        regions.push(nr);
    }
    let mut st = OperationState::new(cx.ir.op(op).name, cx.ir.loc(op));
    st.operands = operands;
    st.result_types = results.iter().map(|r| cx.ir.value_type(*r)).collect();
    st.properties = cx.ir.op(op).properties;
    st.regions = regions;
    let attrs = cx.ir.op(op).attrs;
    let new = hivm_ir::builder::Builder::new(cx.ir, cx.ip).create(st);
    cx.ir.op_mut(new).attrs = attrs;
    for (i, r) in results.iter().enumerate() {
        let n = cx.ir.result(new, i);
        cx.map.insert(*r, n);
    }
    Ok(())
}

/// `scf.yield` / `scf.condition`; a for loop's blocks of pointers yield
/// their new view and offsets (the scalar part and the first dimension's
/// together in the first, as upstream yields them).
pub fn terminator(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let parent = cx.ir.parent_op(op);
    let carried = parent.and_then(|p| cx.loops.get(&p).cloned());
    let Some(carried) = carried.filter(|_| cx.ir.is_op(op, "scf.yield")) else {
        for v in cx.ir.operands(op) {
            if is_pointer_like(cx, cx.ir.value_type(*v)) {
                return Err(cx.unsupported(op, "of pointers"));
            }
        }
        return cx.clone_mapped(op);
    };
    let mut values = Vec::new();
    let mut appended = Vec::new();
    for (i, v) in cx.ir.operands(op).to_vec().into_iter().enumerate() {
        let Some(c) = carried.get(i).cloned().flatten() else {
            values.push(cx.lookup(v)?);
            continue;
        };
        let st = pointer(cx, v)?;
        let strides: Vec<Ofr> = c.strides.iter().map(|s| Ofr::Val(*s)).collect();
        if st.source != c.init.source || st.sizes != c.init.sizes || (st.rank() > 0 && st.strides != strides) {
            return Err(cx.unsupported(op, "of a block of pointers whose shape or strides change in the loop"));
        }
        if st.rank() == 0 {
            values.push(total_offset(cx, &st));
            continue;
        }
        let total = total_offset(cx, &st);
        let mut offsets = vec![total];
        let zero = cx.em().index_const(0);
        offsets.extend(std::iter::repeat_n(zero, st.rank() - 1));
        appended.extend(offsets);
        if !c.view {
            continue;
        }
        // The view the `addptr` made, where it stood, when it already has the
        // loop argument's type (as upstream yields it); else a new one here.
        let arg_type = match cx.ip {
            InsertPoint::End(b) => cx.ir.block_args(b).get(values.len() + 1).map(|a| cx.ir.value_type(*a)),
            _ => None,
        };
        let view = match st.view {
            Some(v) if Some(cx.ir.value_type(v)) == arg_type => v,
            _ => dynamic_view(cx, &st, total, &c.strides),
        };
        values.push(view);
    }
    values.extend(appended);
    cx.em().op("scf.yield", &values, &[], vec![]);
    Ok(())
}
