//! `hivm-plan-memory`: every local `memref.alloc` (UB, L1, L0C) of a device
//! function becomes a `hivm.hir.pointer_cast` at fixed byte addresses, one
//! address per copy of a multi-buffered buffer.
//!
//! Buffers are placed as upstream places them when everything fits side by
//! side: one after another, aligned to the memory's granule, in the order
//! they are first written (a buffer written first inside a loop but alive
//! around it counts from the loop), the extra copies of multi-buffers after
//! all first copies. As upstream, an elementwise op's output may take an
//! input that dies there (`inplace.rs`), and when a memory's buffers do not
//! fit side by side, buffers never live together share addresses
//! (`reuse.rs`: lives in program order, first fit).
//!
//! Two buffers share a place only when they are never live together, where
//! upstream's liveness can be fooled: a buffer that flows into a `cf` block
//! argument or is used in a block on a cycle keeps its place to the end
//! (`cfg.rs`), and a share needs every use of both in one straight-line
//! block; a loop's init and the buffer its body yields share only when the
//! body reaches the init through the carried value alone (also through
//! branch and select results); an op's output takes an input's place only
//! over provably the same elements. Functions are planned callers first,
//! a callee's buffers above its callers' (`calls.rs`; upstream plans each
//! from 0), and `pointer_cast`s already in a function keep their bytes.

use rustc_hash::FxHashMap;

use hivm_dialects::hacc::targets::Generation;
use hivm_dialects::util::segment_attr;
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, TypeData, Value};

use super::{enclosing_loop, inplace, reuse, root_alloc, skipped_function, space};

pub struct PlanMemory {
    /// `plan-memory-strategy=largest-first`: when buffers must share
    /// places, the biggest are placed first.
    largest_first: bool,
}

impl PlanMemory {
    pub fn from_options(options: &str) -> Result<PlanMemory, String> {
        let mut largest_first = false;
        for kv in options.split_whitespace() {
            match kv {
                "mem-plan-mode=local-mem-plan" | "plan-memory-strategy=default" => {}
                "plan-memory-strategy=largest-first" => largest_first = true,
                _ => return Err(format!("option '{kv}' of hivm-plan-memory is not supported")),
            }
        }
        Ok(PlanMemory { largest_first })
    }
}

/// A local memory: its name in `#hivm.address_space`, size and granule in
/// bits.
struct Memory {
    name: &'static str,
    bits: u64,
    align: u64,
}

fn memory(g: &Generation, space: &str) -> Option<Memory> {
    Some(match space {
        "ub" => Memory { name: "ub", bits: g.ub_bits, align: g.ub_align_bits },
        "cbuf" => Memory { name: "cbuf", bits: g.l1_bits, align: g.l1_align_bits },
        "cc" => Memory { name: "cc", bits: g.l0c_bits, align: g.l0c_align_bits },
        _ => return None,
    })
}

struct Buffer {
    alloc: OpId,
    space: String,
    bits: u64,
    copies: u32,
}

/// Ops that only read the buffers they are given, or only name them.
fn reads_only(name: &str) -> bool {
    matches!(
        name,
        "memref.load"
            | "memref.dim"
            | "annotation.mark"
            | "func.return"
            | "scf.yield"
            | "scf.condition"
            | "scf.for"
            | "scf.if"
            | "scf.while"
            | "hivm.hir.pointer_cast"
    ) || super::view_source_name(name)
}

/// Operands `op` may write (with whether they are scratch): a DPS op's outs
/// and scratch buffers, a `memref.store`'s or `memref.copy`'s target, and,
/// not to miss a write, every buffer any other op is handed.
pub(super) fn written(ir: &Ir, op: OpId) -> Vec<(Value, bool)> {
    let name = ir.op_name(op);
    let ops = ir.operands(op);
    if reads_only(name) {
        return Vec::new();
    }
    if matches!(name, "memref.store" | "memref.copy") {
        return ops.get(1).map(|v| (*v, false)).into_iter().collect();
    }
    let structured = name.starts_with("hivm.hir.") || name.starts_with("linalg.");
    match hivm_dialects::util::segments(ir, op).as_slice() {
        // Outs, and after them scratch (`temp_buffer`, a custom op's tmps,
        // flagged); scalars there are no buffers and drop out later.
        [ins, outs, ..] if structured && *ins + *outs <= ops.len() => {
            ops[*ins..].iter().enumerate().map(|(i, v)| (*v, i >= *outs)).collect()
        }
        // `ins(src) outs(dst...)` without segment sizes.
        _ if name.starts_with("hivm.hir.") && ops.len() >= 2 => ops[1..].iter().map(|v| (*v, false)).collect(),
        _ => ops.iter().map(|v| (*v, false)).collect(),
    }
}

/// Buffers seen through a value this planner cannot follow (a result of
/// `scf.if` / `scf.while` / `arith.select` or of an op it does not know
/// as a view): they may be used anywhere, so they live to the end and are
/// never taken over in place.
fn escaped(ir: &Ir, f: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    ir.walk(f, &mut |o| {
        let name = ir.op_name(o);
        let makes_memref = ir.results(o).iter().any(|r| ir.type_data(ir.value_type(*r)).is_memref());
        if !makes_memref || matches!(name, "memref.alloc" | "memref.alloca" | "scf.for" | "hivm.hir.pointer_cast") {
            return;
        }
        if super::view_source_name(name) {
            return;
        }
        let mut sources: Vec<Value> = ir.operands(o).to_vec();
        // What the regions yield flows out of scf.if / scf.while too.
        ir.walk(o, &mut |inner| {
            if inner != o && matches!(ir.op_name(inner), "scf.yield" | "scf.condition") {
                sources.extend(ir.operands(inner).iter().copied());
            }
        });
        out.extend(sources.into_iter().filter_map(|v| root_alloc(ir, v)));
    });
    out
}

/// The op at `op`'s level or above that is still inside the region
/// defining `alloc`: where a buffer last used at `op` dies (a buffer from
/// outside a loop lives to the loop's end).
fn kill_point(ir: &Ir, alloc: OpId, mut op: OpId) -> OpId {
    let home = ir.parent_op(alloc);
    while let Some(p) = ir.parent_op(op) {
        if Some(p) == home || home.is_some_and(|h| is_ancestor(ir, p, h)) {
            break;
        }
        op = p;
    }
    op
}

/// For an `scf.for`, the (carried, yielded) buffer pairs that may share a
/// place: the yielded buffer is not carried in itself, holds nothing the
/// loop needs on entry, and is written in the body no earlier than the
/// body last reads the carried value (at the same op only if that op works
/// elementwise); nothing reads the carried buffer after the loop but
/// through its results. A body that writes a buffer it allocates and
/// carries before reading the carried value cannot run with one address
/// per alloc at all: that is an error here.
fn loop_carried(
    ir: &Ir,
    lp: OpId,
    order: &FxHashMap<OpId, usize>,
    index: &FxHashMap<OpId, usize>,
    uses: &FxHashMap<OpId, Vec<OpId>>,
    unordered: &[OpId],
) -> Result<Option<Vec<(usize, usize)>>, Diagnostic> {
    if !ir.is_op(lp, "scf.for") {
        return Ok(None);
    }
    let body = ir.region_blocks(ir.regions(lp)[0])[0];
    let Some(y) = ir.block(body).last.filter(|y| ir.is_op(*y, "scf.yield")) else { return Ok(None) };
    let mut body_ops = Vec::new();
    ir.walk(lp, &mut |x| {
        if x != lp {
            body_ops.push(x);
        }
    });
    let loop_end = body_ops.iter().map(|x| order[x]).max().unwrap_or(order[&lp]);
    let mut out = Vec::new();
    let no_uses: Vec<OpId> = Vec::new();
    let uses_of = |r: OpId| uses.get(&r).unwrap_or(&no_uses).as_slice();
    for (k, (init, yielded)) in ir.operands(lp)[3..].iter().zip(ir.operands(y)).enumerate() {
        let (Some(a), Some(b)) = (root_alloc(ir, *init), root_alloc(ir, *yielded)) else { continue };
        let (Some(&ia), Some(&ib)) = (index.get(&a), index.get(&b)) else { continue };
        let inits: Vec<Option<OpId>> = ir.operands(lp)[3..].iter().map(|v| root_alloc(ir, *v)).collect();
        if a == b || is_ancestor(ir, lp, a) || inits.contains(&Some(b)) {
            continue;
        }
        if unordered.contains(&a) || unordered.contains(&b) || !super::cfg::confined(ir, lp, &[uses_of(a), uses_of(b)])
        {
            continue;
        }
        // An enclosing loop that does not hold the init's alloc runs this
        // loop again from the init: it must outlive the loop.
        let mut outer = ir.parent_op(lp);
        let mut rerun = false;
        while let Some(o) = outer {
            rerun |= crate::hivm::gss::memory::is_loop_like(ir.op_name(o)) && !is_ancestor(ir, o, a);
            outer = ir.parent_op(o);
        }
        if rerun {
            continue;
        }
        // The body must reach the init only through the carried value: a
        // direct use reads it in every iteration, after the yielded buffer
        // has been written over it.
        let carried = ir.block_args(body)[k + 1];
        let direct = uses_of(a).iter().any(|x| {
            is_ancestor(ir, lp, *x)
                && ir.operands(*x).iter().any(|v| root_alloc(ir, *v) == Some(a) && !reaches_value(ir, *v, carried))
        });
        if direct {
            continue;
        }
        // Its value before the loop must not matter.
        let used_before = order.iter().any(|(x, p)| {
            *p < order[&lp]
                && !matches!(ir.op_name(*x), "annotation.mark")
                && !super::view_source_name(ir.op_name(*x))
                && ir.operands(*x).iter().any(|v| root_alloc(ir, *v) == Some(b))
        });
        if used_before {
            continue;
        }
        // Reads of the carried value, also through branch and select
        // results that may be it.
        let aliases = super::loop_instances::flow(ir, &body_ops, &[carried], &|_| false);
        let reads_carried =
            |x: OpId| ir.operands(x).iter().any(|v| root_alloc(ir, *v) == Some(a) || aliases.contains(v));
        let first_write =
            body_ops.iter().copied().find(|x| written(ir, *x).iter().any(|(v, _)| root_alloc(ir, *v) == Some(b)));
        let last_read = body_ops.iter().copied().rfind(|x| !ir.is_op(*x, "scf.yield") && reads_carried(*x));
        let Some(w) = first_write else { continue };
        if let Some(r) = last_read {
            // Ops that read each element before writing it in the same place.
            let elementwise =
                hivm_dialects::hivm::vector::is_elementwise(ir.op_name(w)) || ir.is_op(w, "hivm.hir.copy");
            if order[&r] > order[&w] || (r == w && !elementwise) {
                if !is_ancestor(ir, lp, b) {
                    // The input itself overwrites what it carries.
                    continue;
                }
                let at = ir.loc(r);
                return Err(err(
                    ir,
                    w,
                    "hivm-plan-memory: this op writes the buffer the loop carries to its next iteration before \
                     the carried value is last read; with one address per alloc the carried value is lost",
                )
                .with_note(at, "the carried value is read here"));
            }
        }
        // Read after the loop other than through its results: keep apart.
        let from_loop = |mut v: Value| loop {
            match ir.defining_op(v) {
                Some(d) if d == lp => return true,
                Some(d) => match super::view_source(ir, d) {
                    Some(src) => v = src,
                    None => return false,
                },
                None => return false,
            }
        };
        // What may be the init outside the loop (through branch and
        // select results too).
        let outside: Vec<OpId> = order.keys().copied().filter(|x| *x != lp && !is_ancestor(ir, lp, *x)).collect();
        let init_aliases = super::loop_instances::flow(ir, &outside, &[ir.result(a, 0)], &|_| false);
        let mut later_use = false;
        for (x, p) in order {
            let direct = ir
                .operands(*x)
                .iter()
                .any(|v| (root_alloc(ir, *v) == Some(a) || init_aliases.contains(v)) && !from_loop(*v));
            if *p > loop_end && direct && !is_ancestor(ir, lp, *x) {
                later_use = true;
            }
        }
        if !later_use {
            out.push((ib.min(ia), ib.max(ia)));
        }
    }
    Ok(Some(out))
}

/// Whether `v` is `target` or reached from it through views and `scf.for`
/// iteration values (the path `root_alloc` follows).
fn reaches_value(ir: &Ir, mut v: Value, target: Value) -> bool {
    for _ in 0..10_000 {
        if v == target {
            return true;
        }
        match ir.value_def(v) {
            hivm_ir::ValueDef::Result { op, index } => {
                if let Some(src) = super::view_source(ir, op) {
                    v = src;
                } else if ir.is_op(op, "scf.for") {
                    match ir.operands(op).get(3 + index as usize) {
                        Some(x) => v = *x,
                        None => return false,
                    }
                } else {
                    return false;
                }
            }
            hivm_ir::ValueDef::BlockArg { block, index } => {
                let owner = ir.block(block).parent.and_then(|r| ir.region_parent(r));
                match owner {
                    Some(o) if ir.is_op(o, "scf.for") && index >= 1 => match ir.operands(o).get(3 + index as usize - 1)
                    {
                        Some(x) => v = *x,
                        None => return false,
                    },
                    _ => return false,
                }
            }
            hivm_ir::ValueDef::Placeholder => return false,
        }
    }
    false
}

fn err(ir: &Ir, op: OpId, m: impl Into<String>) -> Diagnostic {
    Diagnostic::error(ir.loc(op), m)
}

/// Where the `pointer_cast`s already in `f` end in each memory (bytes), or
/// one whose addresses or size are not constants.
fn existing_casts(ir: &Ir, f: OpId, g: &Generation) -> (FxHashMap<&'static str, u64>, Vec<(String, OpId)>) {
    let mut ends: FxHashMap<&'static str, u64> = FxHashMap::default();
    let mut unknown = Vec::new();
    ir.walk(f, &mut |o| {
        if !ir.is_op(o, "hivm.hir.pointer_cast") {
            return;
        }
        let res = ir.result(o, 0);
        let Some(m) = space(ir, res).and_then(|sp| memory(g, &sp)) else { return };
        let bytes = match ir.type_data(ir.value_type(res)) {
            TypeData::MemRef { shape, elem, .. } if shape.iter().all(|d| *d >= 0) => super::scalar_bits(ir, *elem)
                .and_then(|b| shape.iter().try_fold(b, |a, d| a.checked_mul(*d as u64)))
                .map(|b| b.div_ceil(8)),
            _ => None,
        };
        let addrs: Option<Vec<i64>> =
            hivm_dialects::util::segment(ir, o, 0).iter().map(|v| hivm_dialects::util::constant_int(ir, *v)).collect();
        match (bytes, addrs) {
            (Some(n), Some(addrs)) => {
                for a in addrs {
                    let e = ends.entry(m.name).or_default();
                    *e = (*e).max((a.max(0) as u64).saturating_add(n));
                }
            }
            _ => unknown.push((m.name.to_string(), o)),
        }
    });
    (ends, unknown)
}

/// Plans `f` with every memory's addresses starting at `base` (bytes, by
/// memory name); returns where its buffers end in each memory.
fn plan_function(
    ir: &mut Ir,
    f: OpId,
    g: &Generation,
    base: &FxHashMap<&'static str, u64>,
    largest_first: bool,
) -> Result<FxHashMap<&'static str, u64>, Diagnostic> {
    let cfg = super::cfg::Cfg::new(ir, f);
    // Program order of every op, for "used at or after".
    let mut order: FxHashMap<OpId, usize> = FxHashMap::default();
    let mut ops = Vec::new();
    ir.walk(f, &mut |o| {
        order.insert(o, ops.len());
        ops.push(o);
    });
    let mut buffers: Vec<Buffer> = Vec::new();
    let mut index: FxHashMap<OpId, usize> = FxHashMap::default();
    // The last op (in program order) using each buffer, through any view.
    let mut last_use: FxHashMap<OpId, usize> = FxHashMap::default();
    let mut last_user: FxHashMap<OpId, OpId> = FxHashMap::default();
    // Buffers carried by loops are never taken over in place.
    let mut carried: Vec<OpId> = Vec::new();
    // Every op using each buffer, through any view or block argument.
    let mut uses: FxHashMap<OpId, Vec<OpId>> = FxHashMap::default();
    for &o in &ops {
        if ir.is_op(o, "memref.alloc") {
            let res = ir.result(o, 0);
            let sp = space(ir, res);
            let Some(sp) = sp.filter(|s| s != "gm") else { return Err(err(ir, o, "Alloc buffer not at UB space! ")) };
            if memory(g, &sp).is_none() {
                return Err(err(ir, o, "Currently only support (UB | L1 | L0C) allocation"));
            }
            let TypeData::MemRef { shape, elem, .. } = ir.type_data(ir.value_type(res)).clone() else { continue };
            if shape.iter().any(|d| *d < 0) {
                return Err(err(ir, o, "hivm-plan-memory cannot place a buffer of dynamic size"));
            }
            let Some(elem_bits) = super::scalar_bits(ir, elem) else {
                return Err(err(ir, o, "hivm-plan-memory cannot size this element type"));
            };
            let Some(bits) = shape.iter().try_fold(elem_bits, |a, d| a.checked_mul(*d as u64)) else {
                return Err(err(ir, o, "hivm-plan-memory: this buffer's size overflows"));
            };
            index.insert(o, buffers.len());
            buffers.push(Buffer { alloc: o, space: sp, bits, copies: 1 });
        }
        for v in ir.operands(o) {
            for a in cfg.roots(ir, *v) {
                let us = uses.entry(a).or_default();
                if us.last() != Some(&o) {
                    us.push(o);
                }
                last_use.insert(a, order[&o]);
                last_user.insert(a, o);
                let yields_loop = ir.is_op(o, "scf.yield") && ir.parent_op(o).is_some_and(|p| ir.is_op(p, "scf.for"));
                if ir.is_op(o, "scf.for") || yields_loop {
                    carried.push(a);
                }
            }
        }
        if ir.is_op(o, "annotation.mark")
            && let Some(n) = ir.get_attr(o, "hivm.multi_buffer").and_then(|a| ir.as_int(a))
            && let Some(a) = ir.operands(o).first().and_then(|v| root_alloc(ir, *v))
            && let Some(&i) = index.get(&a)
            && n > 1
        {
            // More copies than the memory has granules cannot fit anyway.
            let m = memory(g, &buffers[i].space).expect("a local space");
            if n > (m.bits / m.align) as i128 {
                return Err(err(ir, o, format!("hivm.multi_buffer = {n}: more copies than {} can hold", m.name)));
            }
            buffers[i].copies = n as u32;
        }
    }
    // Buffers seen through values not followed here live to the end.
    let mut escaped = escaped(ir, f);
    let unordered = cfg.unordered(ir, f);
    escaped.extend(unordered.iter().copied());
    for a in &escaped {
        last_use.insert(*a, usize::MAX);
        last_user.remove(a);
    }
    // The order of first writes; a loop counts as writing every buffer
    // allocated before it and still used from it on.
    let mut genned: Vec<usize> = Vec::new();
    let mut is_genned = vec![false; buffers.len()];
    let mut scratch = vec![false; buffers.len()];
    let mut per_op: Vec<inplace::OpBuffers> = Vec::new();
    let mut gen_pos = vec![0usize; buffers.len()];
    for &o in &ops {
        let mut gens = Vec::new();
        let mut gen_one = |i: usize, genned: &mut Vec<usize>, gens: &mut Vec<usize>| {
            if !is_genned[i] {
                is_genned[i] = true;
                genned.push(i);
                gens.push(i);
            }
        };
        if matches!(ir.op_name(o), "scf.for" | "scf.while") {
            let here = order[&o];
            for (i, b) in buffers.iter().enumerate() {
                if order[&b.alloc] < here && last_use.get(&b.alloc).is_some_and(|l| *l >= here) {
                    gen_one(i, &mut genned, &mut gens);
                }
            }
        }
        for (v, is_scratch) in written(ir, o) {
            for i in cfg.roots(ir, v).into_iter().filter_map(|a| index.get(&a).copied()) {
                scratch[i] |= is_scratch;
                gen_one(i, &mut genned, &mut gens);
            }
        }
        // Inputs whose last use this is, in allocation order.
        let kills: Vec<usize> = (0..buffers.len())
            .filter(|i| {
                let b = &buffers[*i];
                is_genned[*i]
                    && !gens.contains(i)
                    && last_user.get(&b.alloc).is_some_and(|u| kill_point(ir, b.alloc, *u) == o)
            })
            .collect();
        for &i in &gens {
            gen_pos[i] = order[&o];
        }
        per_op.push(inplace::OpBuffers { op: o, gens, kills });
    }
    if let Some(b) = buffers.iter().enumerate().find(|(i, _)| !is_genned[*i]).map(|(_, b)| b) {
        return Err(err(ir, b.alloc, "'memref.alloc' op error: read before first write"));
    }
    // In-place pairs: the written buffer joins the input's entry.
    let facts: Vec<inplace::BufferFacts> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| inplace::BufferFacts {
            alloc: b.alloc,
            bits: b.bits,
            copies: b.copies,
            ignore: scratch[i] || carried.contains(&b.alloc) || escaped.contains(&b.alloc),
        })
        .collect();
    let mut owner: Vec<usize> = (0..buffers.len()).collect();
    // A loop's carried buffer and the one its body allocates and yields
    // are one place, as upstream pairs them, when that is safe.
    let mut loop_pairs: Vec<(usize, usize)> = Vec::new();
    for &o in &ops {
        if let Some(pairs) = loop_carried(ir, o, &order, &index, &uses, &unordered)? {
            loop_pairs.extend(pairs);
        }
    }
    loop_pairs.sort();
    loop_pairs.dedup();
    // One address per alloc: no loop may still need an earlier instance
    // when it writes the next.
    for b in &buffers {
        super::loop_instances::check(ir, b.alloc, &order)?;
    }
    // In place only where program order is execution order for both.
    let no_uses: Vec<OpId> = Vec::new();
    let straight = |op: OpId, a: OpId, b: OpId| {
        let (ua, ub) = (uses.get(&a).unwrap_or(&no_uses), uses.get(&b).unwrap_or(&no_uses));
        super::cfg::confined(ir, op, &[ua, ub])
    };
    let inplace_pairs = inplace::pairs(ir, f, &per_op, &facts, &scratch, &straight);
    fn root(owner: &[usize], mut x: usize) -> usize {
        while owner[x] != x {
            x = owner[x];
        }
        x
    }
    for (g, k) in loop_pairs.into_iter().chain(inplace_pairs) {
        let (rg, rk) = (root(&owner, g), root(&owner, k));
        if rg != rk {
            owner[rg] = rk;
            buffers[rk].copies = buffers[rk].copies.max(buffers[rg].copies);
        }
    }
    let owner_of = |x: usize| root(&owner, x);
    // A shared place is as big as its biggest buffer.
    for i in 0..buffers.len() {
        let o = owner_of(i);
        buffers[o].bits = buffers[o].bits.max(buffers[i].bits);
    }
    // Entries: first copies in write order, then the extra copies.
    let firsts: Vec<usize> = genned.iter().copied().filter(|i| owner_of(*i) == *i).collect();
    let mut entries: Vec<usize> = firsts.clone();
    for &i in &firsts {
        for _ in 1..buffers[i].copies {
            entries.push(i);
        }
    }
    let mut spaces: Vec<&str> = Vec::new();
    for &i in &entries {
        if !spaces.contains(&buffers[i].space.as_str()) {
            spaces.push(&buffers[i].space);
        }
    }
    let mut offsets: Vec<Vec<u64>> = vec![Vec::new(); buffers.len()];
    let mut ends: FxHashMap<&'static str, u64> = FxHashMap::default();
    // Buffers the function already addresses itself keep their bytes.
    let (taken, unknown) = existing_casts(ir, f, g);
    for sp in spaces {
        let m = memory(g, sp).expect("checked above");
        if let Some((_, pc)) = unknown.iter().find(|(n, _)| n == m.name) {
            return Err(err(
                ir,
                *pc,
                format!(
                    "hivm-plan-memory cannot place {} buffers beside this pointer_cast: its addresses or size are not \
                     constants",
                    m.name
                ),
            ));
        }
        let granule = m.align / 8;
        let start =
            base.get(m.name).copied().unwrap_or(0).max(taken.get(m.name).map_or(0, |e| e.div_ceil(granule) * granule));
        let mut at = start * 8;
        let mut count = 0;
        for &i in entries.iter().filter(|i| buffers[**i].space == sp) {
            offsets[i].push(at.div_ceil(8));
            at += buffers[i].bits.div_ceil(m.align) * m.align;
            count += 1;
        }
        let mut reused = false;
        if at > m.bits && count > 1 {
            // Side by side does not fit: buffers dead for each other's whole
            // lives may share bytes.
            let mine: Vec<usize> = entries.iter().copied().filter(|i| buffers[*i].space == sp).collect();
            let life = |i: usize| {
                let members = (0..buffers.len()).filter(|x| owner_of(*x) == i);
                let forever = buffers[i].copies > 1;
                members.fold((usize::MAX, 0usize), |(s, e), x| {
                    let b = &buffers[x];
                    let whole = forever || carried.contains(&b.alloc) || escaped.contains(&b.alloc);
                    let end = match last_user.get(&b.alloc) {
                        Some(u) if !whole => subtree_end(ir, &order, kill_point(ir, b.alloc, *u)),
                        _ => usize::MAX,
                    };
                    // From the first write, or earlier from the op at the
                    // buffer's level holding its first use (a region that
                    // runs more than once may read it before writing it).
                    let first_use =
                        uses.get(&b.alloc).and_then(|u| u.first()).map(|u| order[&kill_point(ir, b.alloc, *u)]);
                    let start = if whole { 0 } else { first_use.map_or(gen_pos[x], |p| p.min(gen_pos[x])) };
                    (s.min(start), e.max(end))
                })
            };
            // Placement order: write order, or biggest first (stable).
            let mut perm: Vec<usize> = (0..mine.len()).collect();
            if largest_first {
                perm.sort_by_key(|k| std::cmp::Reverse(buffers[mine[*k]].bits));
            }
            let list: Vec<reuse::Entry> = perm
                .iter()
                .map(|&k| {
                    let (start, end) = life(mine[k]);
                    reuse::Entry { bits: buffers[mine[k]].bits, start, end }
                })
                .collect();
            let mut placed = vec![0; mine.len()];
            for (k, off) in perm.iter().zip(reuse::first_fit(&list, start * 8, m.align)) {
                placed[*k] = off;
            }
            at = start * 8;
            for (k, &i) in mine.iter().enumerate() {
                let n = offsets[i].len();
                // Replace the side-by-side offsets of this space, in order.
                let pos = n - mine[k..].iter().filter(|x| **x == i).count();
                offsets[i][pos] = placed[k].div_ceil(8);
                at = at.max(placed[k] + buffers[i].bits.div_ceil(m.align) * m.align);
            }
            reused = true;
        }
        if at > m.bits {
            let e = Diagnostic::error(
                ir.loc(f),
                format!(
                    "{} overflow, requires {at} bits while {} bits available! (possible reason: tiling basic block is \
                     too large or block number is more than what user expect due to multi-buffer feature is enabled \
                     and some ops need extra local buffer.)",
                    m.name, m.bits
                ),
            );
            if start > 0 {
                return Err(e.with_note(
                    ir.loc(f),
                    format!(
                        "this function's buffers start at byte {start} of {}, above those of its callers (a callee \
                         must not overwrite what is live at its call)",
                        m.name
                    ),
                ));
            }
            return Err(if reused {
                e.with_note(ir.loc(f), "even with buffers that are never live together sharing addresses")
            } else {
                e
            });
        }
        ends.insert(m.name, at.div_ceil(8));
    }
    for (sp, e) in taken {
        let x = ends.entry(sp).or_default();
        *x = (*x).max(e);
    }
    for i in 0..buffers.len() {
        let o = owner_of(i);
        if o != i {
            offsets[i] = offsets[o].clone();
        }
    }
    rewrite(ir, f, &buffers, &offsets);
    fix_multi_buffers(ir, f);
    Ok(ends)
}

/// Each alloc becomes a `pointer_cast` of its addresses; an address is one
/// `i64` constant at the top of the function, made on first use there.
fn rewrite(ir: &mut Ir, f: OpId, buffers: &[Buffer], offsets: &[Vec<u64>]) {
    let entry = ir.region_blocks(ir.regions(f)[0])[0];
    let mut consts: FxHashMap<u64, Value> = FxHashMap::default();
    for (b, offs) in buffers.iter().zip(offsets) {
        let loc = ir.loc(b.alloc);
        let mut addrs = Vec::new();
        for o in offs {
            let v = match consts.get(o) {
                Some(v) => *v,
                None => {
                    let i64t = ir.int_type(64);
                    let a = ir.int_attr(*o as i128, i64t);
                    let mut bld = Builder::new(ir, InsertPoint::start(ir, entry));
                    let c = bld.op("arith.constant", &[], &[i64t], vec![("value", a)], loc);
                    let v = ir.result(c, 0);
                    consts.insert(*o, v);
                    v
                }
            };
            addrs.push(v);
        }
        let t = ir.value_type(ir.result(b.alloc, 0));
        let seg = segment_attr(ir, &[addrs.len(), 0]);
        let mut bld = Builder::new(ir, InsertPoint::Before(b.alloc));
        let pc = bld.op("hivm.hir.pointer_cast", &addrs, &[t], vec![("operandSegmentSizes", seg)], loc);
        let v = ir.result(pc, 0);
        ir.replace_op(b.alloc, &[v]);
    }
}

/// Moves each multi-buffered `pointer_cast` (and its mark) to the front of
/// its loop body, so that every iteration starts with its copy chosen, and
/// points a single-buffer `pointer_cast` at the same addresses to it.
fn fix_multi_buffers(ir: &mut Ir, f: OpId) {
    let mut marked: Vec<(OpId, OpId)> = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "annotation.mark")
            && ir.get_attr(o, "hivm.multi_buffer").is_some()
            && let Some(pc) = ir.operands(o).first().and_then(|v| ir.defining_op(*v))
            && ir.is_op(pc, "hivm.hir.pointer_cast")
            && !marked.iter().any(|(p, _)| *p == pc)
        {
            marked.push((pc, o));
        }
    });
    for &(pc, mark) in &marked {
        let Some(lp) = enclosing_loop(ir, pc) else { continue };
        if !matches!(ir.op_name(lp), "scf.for" | "scf.while") {
            continue;
        }
        let block = crate::hivm::block_in(ir, lp, pc);
        if let Some(first) = ir.block(block).first.filter(|x| *x != pc) {
            ir.move_op_before(pc, first);
        }
        ir.move_op_after(mark, pc);
    }
    let mut seen: Vec<OpId> = Vec::new();
    let mut casts = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "hivm.hir.pointer_cast") {
            casts.push(o);
        }
    });
    for pc in casts {
        if marked.iter().any(|(p, _)| *p == pc) {
            seen.push(pc);
            continue;
        }
        let same = seen.iter().rev().find(|m| {
            ir.parent_block(**m).is_some_and(|b| block_encloses(ir, b, pc))
                && ir.operands(**m) == ir.operands(pc)
                && ir.value_type(ir.result(**m, 0)) == ir.value_type(ir.result(pc, 0))
        });
        if let Some(&m) = same {
            let (from, to) = (ir.result(pc, 0), ir.result(m, 0));
            ir.replace_all_uses_in(f, from, to);
        }
    }
}

/// Whether `op` sits in block `b` or in a region nested in it (so that a
/// value defined earlier in `b` is visible at `op`).
fn block_encloses(ir: &Ir, b: hivm_ir::BlockId, mut op: OpId) -> bool {
    loop {
        if ir.parent_block(op) == Some(b) {
            return true;
        }
        match ir.parent_op(op) {
            Some(p) => op = p,
            None => return false,
        }
    }
}

/// The last program position inside `op` (itself when it has no regions).
fn subtree_end(ir: &Ir, order: &FxHashMap<OpId, usize>, op: OpId) -> usize {
    let mut end = order[&op];
    ir.walk(op, &mut |x| end = end.max(order.get(&x).copied().unwrap_or(end)));
    end
}

fn is_ancestor(ir: &Ir, a: OpId, mut op: OpId) -> bool {
    while let Some(p) = ir.parent_op(op) {
        if p == a {
            return true;
        }
        op = p;
    }
    false
}

impl Pass for PlanMemory {
    fn name(&self) -> &str {
        "hivm-plan-memory"
    }

    fn display_name(&self) -> &str {
        "PlanMemory"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let funcs: Vec<OpId> =
            super::super::defined_functions(ir, root).into_iter().filter(|f| !skipped_function(ir, *f)).collect();
        // Callers first: a callee's buffers start above everything its
        // callers place (upstream plans each function from address 0, so a
        // call could overwrite its caller's live buffers).
        let calls = super::calls::CallGraph::new(ir, &funcs);
        let (order, sorted) = calls.callers_first(ir)?;
        let mut ends: FxHashMap<OpId, FxHashMap<&'static str, u64>> = FxHashMap::default();
        for (n, f) in order.into_iter().enumerate() {
            let target = hivm_dialects::hacc::module_target(ir, f);
            let Some(t) = target.as_deref().and_then(hivm_dialects::hacc::targets::target) else {
                return Err(err(
                    ir,
                    f,
                    "hivm-plan-memory needs the module's target to size local memories (run \
                     hacc-append-device-spec{target=...} first)",
                ));
            };
            let mut base: FxHashMap<&'static str, u64> = FxHashMap::default();
            let below: Vec<OpId> =
                if n < sorted { calls.callers(f).copied().collect() } else { ends.keys().copied().collect() };
            for caller in &below {
                for (sp, end) in ends.get(caller).into_iter().flatten() {
                    let b = base.entry(*sp).or_default();
                    *b = (*b).max(*end);
                }
            }
            let mut end = plan_function(ir, f, t.generation, &base, self.largest_first)?;
            for (sp, b) in base {
                let e = end.entry(sp).or_default();
                *e = (*e).max(b);
            }
            ends.insert(f, end);
        }
        Ok(())
    }
}
