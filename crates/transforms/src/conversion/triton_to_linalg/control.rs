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

pub fn for_loop(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let operands = cx.ir.operands(op).to_vec();
    let results = cx.ir.results(op).to_vec();
    let body = cx.ir.single_block(cx.ir.regions(op)[0]).ok_or_else(|| cx.unsupported(op, "with several blocks"))?;
    let old_args = cx.ir.block_args(body).to_vec();
    let mut new_operands = Vec::new();
    for v in &operands[..3] {
        new_operands.push(cx.lookup(*v)?);
    }
    let mut carried: Vec<Option<PtrState>> = Vec::new();
    for v in &operands[3..] {
        if is_pointer_like(cx, cx.ir.value_type(*v)) {
            let st = pointer(cx, *v)?;
            new_operands.push(total_offset(cx, &st));
            carried.push(Some(st));
        } else {
            new_operands.push(cx.lookup(*v)?);
            carried.push(None);
        }
    }
    let index = cx.ir.index_type();
    let types: Vec<Type> = new_operands[3..].iter().map(|v| cx.ir.value_type(*v)).collect();
    let region = cx.ir.new_region();
    let block = cx.ir.create_block();
    cx.ir.push_block(region, block);
    let iv_t = cx.ir.value_type(old_args[0]);
    let iv = cx.ir.add_block_arg(block, iv_t, None);
    cx.map.insert(old_args[0], iv);
    for (i, t) in types.iter().enumerate() {
        let a = cx.ir.add_block_arg(block, *t, None);
        let old = old_args[i + 1];
        match &carried[i] {
            Some(st) => {
                let inner =
                    PtrState { base: Ofr::Val(a), offsets: vec![Ofr::Const(0); st.rank()], view: None, ..st.clone() };
                cx.ptrs.insert(old, inner);
            }
            None => {
                cx.map.insert(old, a);
            }
        }
    }
    let _ = index;
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
    for (i, r) in results.iter().enumerate() {
        let n = cx.ir.result(new, i);
        match &carried[i] {
            Some(init) => {
                let after = PtrState {
                    base: Ofr::Val(n),
                    offsets: vec![Ofr::Const(0); init.rank()],
                    view: None,
                    ..init.clone()
                };
                cx.ptrs.insert(*r, after);
            }
            None => {
                cx.map.insert(*r, n);
            }
        }
    }
    Ok(())
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

/// `scf.yield` / `scf.condition`; a for loop's pointers yield their offsets.
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
    for (i, v) in cx.ir.operands(op).to_vec().into_iter().enumerate() {
        match carried.get(i).cloned().flatten() {
            Some(init) => {
                let st = pointer(cx, v)?;
                if st.source != init.source || st.sizes != init.sizes || st.strides != init.strides {
                    return Err(cx.unsupported(op, "of a block of pointers whose shape or strides change in the loop"));
                }
                values.push(total_offset(cx, &st));
            }
            None => values.push(cx.lookup(v)?),
        }
    }
    cx.em().op("scf.yield", &values, &[], vec![]);
    Ok(())
}
