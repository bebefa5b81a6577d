//! Unstructured control flow (`cf` branches between blocks) for
//! `hivm-plan-memory`: which buffers a block argument may be, which blocks
//! lie on a cycle, and whether a buffer's uses stay inside one block.
//!
//! The planner reasons in program order, which is execution order only
//! inside one block: blocks may be laid out in any order and re-entered
//! through back edges. So a buffer that flows into a block argument or is
//! used in a block on a cycle is kept for the whole function, and two
//! buffers share a place only when everything done with both happens in
//! one straight-line block at every level of multi-block regions.

use rustc_hash::{FxHashMap, FxHashSet};

use hivm_ir::{BlockId, Ir, OpId, Value, ValueDef};

use super::view_source;

/// What the blocks of one function say about its buffers.
pub struct Cfg {
    /// The allocs each non-entry block argument may be.
    arg_roots: FxHashMap<Value, Vec<OpId>>,
    /// Blocks reachable from themselves.
    cyclic: FxHashSet<BlockId>,
}

impl Cfg {
    pub fn new(ir: &Ir, f: OpId) -> Cfg {
        let mut branches = Vec::new();
        ir.walk(f, &mut |o| {
            if !ir.successors(o).is_empty() {
                branches.push(o);
            }
        });
        let mut cfg = Cfg { arg_roots: FxHashMap::default(), cyclic: FxHashSet::default() };
        // Block arguments take the union of what flows in, to a fixed point.
        loop {
            let mut changed = false;
            for &b in &branches {
                for (arg, v) in edges(ir, b) {
                    let new = cfg.roots(ir, v);
                    let entry = cfg.arg_roots.entry(arg).or_default();
                    for r in new {
                        if !entry.contains(&r) {
                            entry.push(r);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // A block is on a cycle when its successors lead back to it.
        let mut blocks = FxHashSet::default();
        for &b in &branches {
            blocks.extend(ir.parent_block(b));
            blocks.extend(ir.successors(b).iter().copied());
        }
        for blk in blocks {
            if reaches(ir, &successors_of(ir, blk), blk) {
                cfg.cyclic.insert(blk);
            }
        }
        cfg
    }

    /// The allocs `v` may be a view of: one, following views and `scf.for`
    /// iteration values to their start as `root_alloc` does, or, for a
    /// block argument, all that flow into it.
    pub fn roots(&self, ir: &Ir, v: Value) -> Vec<OpId> {
        let mut v = v;
        for _ in 0..10_000 {
            match ir.value_def(v) {
                ValueDef::Result { op, index } => {
                    if matches!(ir.op_name(op), "memref.alloc" | "memref.alloca") {
                        return vec![op];
                    }
                    if let Some(src) = view_source(ir, op) {
                        v = src;
                    } else if ir.is_op(op, "scf.for") {
                        match ir.operands(op).get(3 + index as usize) {
                            Some(x) => v = *x,
                            None => return Vec::new(),
                        }
                    } else {
                        return Vec::new();
                    }
                }
                ValueDef::BlockArg { block, index } => {
                    let owner = ir.block(block).parent.and_then(|r| ir.region_parent(r));
                    match owner {
                        Some(o) if ir.is_op(o, "scf.for") && index >= 1 => {
                            match ir.operands(o).get(3 + index as usize - 1) {
                                Some(x) => v = *x,
                                None => return Vec::new(),
                            }
                        }
                        _ => return self.arg_roots.get(&v).cloned().unwrap_or_default(),
                    }
                }
                ValueDef::Placeholder => return Vec::new(),
            }
        }
        Vec::new()
    }

    /// Buffers the planner cannot follow in program order: those that flow
    /// into a block argument, and those used in a block on a cycle.
    pub fn unordered(&self, ir: &Ir, f: OpId) -> Vec<OpId> {
        let mut out: Vec<OpId> = self.arg_roots.values().flatten().copied().collect();
        if !self.cyclic.is_empty() {
            ir.walk(f, &mut |o| {
                if self.in_cycle(ir, o) {
                    for v in ir.operands(o) {
                        out.extend(self.roots(ir, *v));
                    }
                }
            });
        }
        out.sort();
        out.dedup();
        out
    }

    fn in_cycle(&self, ir: &Ir, mut op: OpId) -> bool {
        loop {
            if ir.parent_block(op).is_some_and(|b| self.cyclic.contains(&b)) {
                return true;
            }
            match ir.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }
}

/// Whether every use of the buffers (`uses` of each) lies in the block that
/// holds `op` at every level where that block's region has several blocks:
/// then program order is execution order for all of them.
pub fn confined(ir: &Ir, op: OpId, uses: &[&[OpId]]) -> bool {
    let mut at = op;
    while let Some(b) = ir.parent_block(at) {
        let multi = ir.block(b).parent.is_some_and(|r| ir.region_blocks(r).len() > 1);
        if multi && !uses.iter().all(|us| us.iter().all(|u| encloses(ir, b, *u))) {
            return false;
        }
        match ir.parent_op(at) {
            Some(p) => at = p,
            None => break,
        }
    }
    true
}

fn encloses(ir: &Ir, b: BlockId, mut op: OpId) -> bool {
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

/// (block argument, value passed to it) for each successor operand of a
/// branch: `cf.cond_br` by its segments, any other branch with one
/// successor by its operands in order.
fn edges(ir: &Ir, br: OpId) -> Vec<(Value, Value)> {
    let succ = ir.successors(br);
    let ops = ir.operands(br);
    let mut out = Vec::new();
    let mut push = |blk: BlockId, vals: &[Value]| {
        for (a, v) in ir.block_args(blk).iter().zip(vals) {
            out.push((*a, *v));
        }
    };
    if ir.is_op(br, "cf.cond_br") {
        let seg = hivm_dialects::util::segments(ir, br);
        let (t, e) = (seg.get(1).copied().unwrap_or(0), seg.get(2).copied().unwrap_or(0));
        if succ.len() == 2 && 1 + t + e <= ops.len() {
            push(succ[0], &ops[1..1 + t]);
            push(succ[1], &ops[1 + t..1 + t + e]);
        }
    } else if succ.len() == 1 {
        push(succ[0], ops);
    } else {
        // A branch whose operand split is unknown: any operand may reach
        // any successor argument.
        for &s in succ {
            for a in ir.block_args(s) {
                for v in ops {
                    out.push((*a, *v));
                }
            }
        }
    }
    out
}

fn successors_of(ir: &Ir, blk: BlockId) -> Vec<BlockId> {
    ir.block(blk).last.map(|t| ir.successors(t).to_vec()).unwrap_or_default()
}

/// Whether `target` is reachable from `from` along branch edges.
fn reaches(ir: &Ir, from: &[BlockId], target: BlockId) -> bool {
    let mut seen: FxHashSet<BlockId> = FxHashSet::default();
    let mut todo: Vec<BlockId> = from.to_vec();
    while let Some(b) = todo.pop() {
        if b == target {
            return true;
        }
        if seen.insert(b) {
            todo.extend(successors_of(ir, b));
        }
    }
    false
}
