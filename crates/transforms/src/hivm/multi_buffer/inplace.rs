//! In-place reuse for `hivm-plan-memory`: at an elementwise op, a buffer
//! the op writes first may take over one of the op's inputs that dies
//! there, if it is no bigger and the op can run in place (upstream's
//! `GenerateInplaceList`, `IsReuseHIVMOp` and `InplaceStallPipeline`).
//! Where one op lets several inputs die, upstream tries them in an order it
//! shuffles with a fixed seed; here they are tried in allocation order.

use hivm_ir::{Ir, OpId, Value};

use super::root_alloc;

/// One op's part in the plan: the buffers it writes first (outs, then
/// scratch), and those whose last use it is.
pub struct OpBuffers {
    pub op: OpId,
    pub gens: Vec<usize>,
    pub kills: Vec<usize>,
}

/// What the rules need to know of each buffer.
pub struct BufferFacts {
    pub alloc: OpId,
    pub bits: u64,
    pub copies: u32,
    /// Never reused in place: scratch buffers, loop-carried buffers.
    pub ignore: bool,
}

/// Ops that compute in place whatever their operands (the ISA's own).
const ISA_INPLACE: &[&str] = &[
    "hivm.hir.vadd",
    "hivm.hir.vsub",
    "hivm.hir.vmax",
    "hivm.hir.vmin",
    "hivm.hir.vor",
    "hivm.hir.vand",
    "hivm.hir.vmul",
];

fn dense_empty(ir: &Ir, op: OpId, name: &str) -> bool {
    hivm_dialects::util::i64_array(ir, op, name).is_empty()
}

/// The op's operand that is a view of buffer `b`'s alloc.
fn operand_of(ir: &Ir, op: OpId, alloc: OpId) -> Option<Value> {
    ir.operands(op).iter().copied().find(|v| root_alloc(ir, *v) == Some(alloc))
}

/// Whether `g` and `k`, views of two buffers that would share one start
/// address, cover the same elements: offsets and strides known and equal
/// (offsets in bytes, so that a narrowing cast starts where its input
/// does), or both reached from their buffers through the same chain of
/// views with the same operands. Different dynamic offsets would make an
/// op read what it has already written.
fn same_place(ir: &Ir, g: Value, k: Value) -> bool {
    let layout = |v: Value| {
        hivm_dialects::util::strides_and_offset(ir, ir.value_type(v))
            .filter(|(st, o)| *o != hivm_ir::types::DYNAMIC && !st.contains(&hivm_ir::types::DYNAMIC))
    };
    if let (Some((gs, go)), Some((ks, ko)), Some(gb), Some(kb)) =
        (layout(g), layout(k), elem_bits(ir, g), elem_bits(ir, k))
    {
        return gs == ks && go as i128 * gb as i128 == ko as i128 * kb as i128;
    }
    if ir.value_type(g) != ir.value_type(k) {
        return false;
    }
    let (mut g, mut k) = (g, k);
    loop {
        match (ir.defining_op(g), ir.defining_op(k)) {
            (Some(a), Some(b)) if super::view_source(ir, a).is_some() && super::view_source(ir, b).is_some() => {
                let same = ir.op_name(a) == ir.op_name(b)
                    && ir.operands(a)[1..] == ir.operands(b)[1..]
                    && ir.op(a).properties == ir.op(b).properties
                    && ir.op(a).attrs == ir.op(b).attrs
                    && ir.value_type(g) == ir.value_type(k);
                if !same {
                    return false;
                }
                (g, k) = (ir.operands(a)[0], ir.operands(b)[0]);
            }
            // Both chains end at their buffers, of one type.
            (Some(a), Some(b)) => {
                return matches!(ir.op_name(a), "memref.alloc" | "memref.alloca")
                    && ir.op_name(a) == ir.op_name(b)
                    && ir.value_type(g) == ir.value_type(k);
            }
            _ => return false,
        }
    }
}

fn elem_bits(ir: &Ir, v: Value) -> Option<u64> {
    match ir.type_data(ir.value_type(v)) {
        hivm_ir::TypeData::MemRef { elem, .. } => super::scalar_bits(ir, *elem),
        _ => None,
    }
}

/// Whether `op` may write `g` over `k` (upstream's `IsReuseHIVMOp`, for the
/// ops it names).
fn reusable(ir: &Ir, op: OpId, g: &BufferFacts, k: &BufferFacts, scratch: bool) -> bool {
    let (Some(gv), Some(kv)) = (operand_of(ir, op, g.alloc), operand_of(ir, op, k.alloc)) else { return false };
    if !same_place(ir, gv, kv) {
        return false;
    }
    let name = ir.op_name(op);
    let plain = dense_empty(ir, op, "broadcast") && dense_empty(ir, op, "transpose");
    if ISA_INPLACE.contains(&name) && plain {
        return true;
    }
    if scratch || !hivm_dialects::hivm::vector::is_elementwise(name) || !dense_empty(ir, op, "transpose") {
        return false;
    }
    if !dense_empty(ir, op, "broadcast") {
        return ir.value_type(gv) == ir.value_type(kv);
    }
    let (Some(gb), Some(kb)) = (elem_bits(ir, gv), elem_bits(ir, kv)) else { return false };
    if gb == kb {
        return true;
    }
    if kb % gb == 0 {
        // A narrowing cast only in place on one contiguous dimension.
        if name == "hivm.hir.vcast" {
            let rank1 = |v: Value| match ir.type_data(ir.value_type(v)) {
                hivm_ir::TypeData::MemRef { shape, .. } => shape.len() <= 1,
                _ => false,
            };
            let contiguous = |v: Value| {
                hivm_dialects::util::strides_and_offset(ir, ir.value_type(v))
                    .is_some_and(|(st, _)| st.last().is_none_or(|s| *s == 1))
            };
            return rank1(gv) && rank1(kv) && contiguous(gv) && contiguous(kv);
        }
        return true;
    }
    false
}

/// Whether the buffer feeds a store (`to_store`) or is filled by a load.
fn touched_by(ir: &Ir, func: OpId, alloc: OpId, name: &str, written: bool) -> bool {
    let mut hit = false;
    ir.walk(func, &mut |o| {
        if ir.is_op(o, name)
            && let Some(&v) = ir.operands(o).get(if written { 1 } else { 0 })
            && root_alloc(ir, v) == Some(alloc)
        {
            hit = true;
        }
    });
    hit
}

/// Reusing a double-buffered load buffer for a double-buffered store's
/// would make the next load wait on the store: upstream keeps them apart.
fn stalls(ir: &Ir, func: OpId, g: &BufferFacts, k: &BufferFacts) -> bool {
    if g.copies <= 1 || k.copies <= 1 {
        return false;
    }
    touched_by(ir, func, g.alloc, "hivm.hir.store", false) && touched_by(ir, func, k.alloc, "hivm.hir.load", true)
}

/// The in-place pairs (written buffer, the input it takes over), in the
/// order they are decided.
/// `straight(op, g, k)` says whether program order is execution order for
/// everything done with the two allocs (see `cfg::confined`).
pub fn pairs(
    ir: &Ir,
    func: OpId,
    ops: &[OpBuffers],
    facts: &[BufferFacts],
    scratch: &[bool],
    straight: &dyn Fn(OpId, OpId, OpId) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for ob in ops {
        if ob.gens.is_empty() || ob.kills.is_empty() || !ir.op_name(ob.op).starts_with("hivm.hir.") {
            continue;
        }
        let op_has_scratch = ob.gens.iter().any(|g| scratch[*g]);
        let mut gens = ob.gens.clone();
        gens.sort_by_key(|g| std::cmp::Reverse(facts[*g].bits));
        let mut taken: Vec<usize> = Vec::new();
        for g in gens {
            if facts[g].ignore {
                continue;
            }
            for &k in &ob.kills {
                if facts[k].ignore || taken.contains(&k) || facts[k].bits < facts[g].bits {
                    continue;
                }
                if reusable(ir, ob.op, &facts[g], &facts[k], op_has_scratch)
                    && !stalls(ir, func, &facts[g], &facts[k])
                    && straight(ob.op, facts[g].alloc, facts[k].alloc)
                {
                    out.push((g, k));
                    taken.push(k);
                    break;
                }
            }
        }
    }
    out
}
