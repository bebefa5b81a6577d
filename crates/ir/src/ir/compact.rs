//! Arena compaction. Erased ops keep their slots (ids stay valid while a pass
//! runs, and `is_erased` can answer for stale ones), so a pipeline that
//! rewrites most of a module would otherwise carry every op it ever made.
//! Between passes nothing outside the [`Ir`] holds an id but the root, so the
//! live entities can be slid down over the dead ones and the arenas shrunk.
//!
//! The compaction is stable and in place: live ops, values, blocks and
//! regions keep their relative order (so an op's results stay consecutive)
//! and move to lower indices within the same vectors. Only the index maps
//! and the operand pool are built anew, which keeps the transient memory
//! well below a second copy of the IR.

use super::{Ir, NO_NESTED, OpId, Span, Value, ValueDef, push_span};
use crate::ir::{BlockId, RegionId};

/// In the index maps: not reachable from the root.
const DEAD: u32 = u32::MAX;
/// In the index maps, before numbering: reachable.
const LIVE: u32 = 0;

/// Old index -> new index of every op, value, block and region.
struct Maps {
    ops: Vec<u32>,
    values: Vec<u32>,
    blocks: Vec<u32>,
    regions: Vec<u32>,
}

impl Maps {
    fn mark(&mut self, ir: &Ir, root: OpId) {
        let mut stack = vec![root];
        while let Some(op) = stack.pop() {
            self.ops[op.index()] = LIVE;
            for &v in ir.results(op) {
                self.values[v.index()] = LIVE;
            }
            for &r in ir.regions(op) {
                self.regions[r.index()] = LIVE;
                for &b in ir.region_blocks(r) {
                    self.blocks[b.index()] = LIVE;
                    for &a in ir.block_args(b) {
                        self.values[a.index()] = LIVE;
                    }
                    stack.extend(ir.block_ops(b));
                }
            }
        }
    }

    /// Whether every reference out of a live op lands on a live entity (a
    /// use of an erased op's result would otherwise have nowhere to go).
    fn closed(&self, ir: &Ir) -> bool {
        (0..self.ops.len()).filter(|&i| self.ops[i] != DEAD).all(|i| {
            let op = OpId::from_index(i);
            ir.operands(op).iter().all(|v| self.values[v.index()] != DEAD)
                && ir.successors(op).iter().all(|b| self.blocks[b.index()] != DEAD)
        })
    }

    /// Turns the live marks into new indices, in old order; returns the count.
    fn number(map: &mut [u32]) -> usize {
        let mut next = 0;
        for slot in map.iter_mut().filter(|s| **s != DEAD) {
            *slot = next;
            next += 1;
        }
        next as usize
    }

    fn op(&self, o: OpId) -> OpId {
        OpId::from_index(self.ops[o.index()] as usize)
    }

    fn value(&self, v: Value) -> Value {
        Value::from_index(self.values[v.index()] as usize)
    }

    fn block(&self, b: BlockId) -> BlockId {
        BlockId::from_index(self.blocks[b.index()] as usize)
    }

    fn region(&self, r: RegionId) -> RegionId {
        RegionId::from_index(self.regions[r.index()] as usize)
    }
}

impl Ir {
    /// Slots in the op arena, erased ops included.
    pub fn op_arena_len(&self) -> usize {
        self.ops.len()
    }

    /// Whether enough of the op arena (a third) is erased for [`Ir::compact`] to pay.
    pub fn worth_compacting(&self) -> bool {
        self.ops.len() >= 4096 && self.erased_ops * 3 >= self.ops.len()
    }

    /// Drops everything not reachable from `root` (a top-level op) and
    /// renumbers the rest; returns the root's new id. Every other op, value,
    /// block and region id becomes invalid. Types, attributes and symbols
    /// are untouched. Left as it is (and `root` returned) when the root has a
    /// parent or a live op refers to something outside the tree.
    pub fn compact(&mut self, root: OpId) -> OpId {
        if self.parent_op(root).is_some() {
            return root;
        }
        let mut m = Maps {
            ops: vec![DEAD; self.ops.len()],
            values: vec![DEAD; self.values.len()],
            blocks: vec![DEAD; self.blocks.len()],
            regions: vec![DEAD; self.regions.len()],
        };
        m.mark(self, root);
        if !m.closed(self) {
            return root;
        }
        let n_ops = Maps::number(&mut m.ops);
        let n_values = Maps::number(&mut m.values);
        let n_blocks = Maps::number(&mut m.blocks);
        let n_regions = Maps::number(&mut m.regions);

        // Operands, regions and successors go to fresh pools (their spans
        // are in no useful order); everything else slides down in place.
        let mut operand_pool = Vec::new();
        let mut region_pool = Vec::new();
        let mut successor_pool = Vec::new();
        let mut nested_pool = Vec::new();
        let mut scratch = Vec::new();
        for old in 0..self.ops.len() {
            if m.ops[old] == DEAD {
                continue;
            }
            let id = OpId::from_index(old);
            scratch.clear();
            scratch.extend(self.operands(id).iter().map(|v| m.value(*v)));
            let operands = push_span(&mut operand_pool, &scratch);
            let results = match self.results(id).first() {
                Some(first) => Span { start: m.values[first.index()], len: self.ops[old].results.len },
                None => Span::default(),
            };
            let nested = if self.ops[old].nested == NO_NESTED {
                NO_NESTED
            } else {
                let regions: Vec<RegionId> = self.regions(id).iter().map(|r| m.region(*r)).collect();
                let successors: Vec<BlockId> = self.successors(id).iter().map(|b| m.block(*b)).collect();
                nested_pool.push((push_span(&mut region_pool, &regions), push_span(&mut successor_pool, &successors)));
                nested_pool.len() as u32 - 1
            };
            let mut o = self.ops[old].clone();
            o.operands = operands;
            o.results = results;
            o.nested = nested;
            o.parent = o.parent.map(|b| m.block(b));
            o.prev = o.prev.map(|p| m.op(p));
            o.next = o.next.map(|n| m.op(n));
            self.ops[m.ops[old] as usize] = o;
        }
        self.ops.truncate(n_ops);
        self.ops.shrink_to_fit();
        self.operand_pool = operand_pool;
        self.region_pool = region_pool;
        self.successor_pool = successor_pool;
        self.nested_pool = nested_pool;

        for old in 0..self.values.len() {
            if m.values[old] == DEAD {
                continue;
            }
            let mut d = self.values[old].clone();
            d.def = match d.def {
                ValueDef::Result { op, index } => ValueDef::Result { op: m.op(op), index },
                ValueDef::BlockArg { block, index } => ValueDef::BlockArg { block: m.block(block), index },
                ValueDef::Placeholder => ValueDef::Placeholder,
            };
            self.values[m.values[old] as usize] = d;
        }
        self.values.truncate(n_values);
        self.values.shrink_to_fit();
        // The identity table stays the identity.
        self.value_ids.truncate(n_values);
        self.value_ids.shrink_to_fit();

        for old in 0..self.blocks.len() {
            if m.blocks[old] == DEAD {
                continue;
            }
            let mut d = std::mem::take(&mut self.blocks[old]);
            for a in d.args.iter_mut() {
                *a = m.value(*a);
            }
            d.first = d.first.map(|o| m.op(o));
            d.last = d.last.map(|o| m.op(o));
            d.parent = d.parent.map(|r| m.region(r));
            self.blocks[m.blocks[old] as usize] = d;
        }
        self.blocks.truncate(n_blocks);
        self.blocks.shrink_to_fit();

        for old in 0..self.regions.len() {
            if m.regions[old] == DEAD {
                continue;
            }
            let mut d = std::mem::take(&mut self.regions[old]);
            for b in d.blocks.iter_mut() {
                *b = m.block(*b);
            }
            d.parent = d.parent.map(|o| m.op(o));
            self.regions[m.regions[old] as usize] = d;
        }
        self.regions.truncate(n_regions);
        self.regions.shrink_to_fit();

        self.erased_ops = 0;
        m.op(root)
    }
}
