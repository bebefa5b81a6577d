//! Arena compaction. Erased ops keep their slots (ids stay valid while a pass
//! runs, and `is_erased` can answer for stale ones), so a pipeline that
//! rewrites most of a module would otherwise carry every op it ever made.
//! Between passes nothing outside the [`Ir`] holds an id but the root, so the
//! live tree can be copied into fresh arenas and the old ones freed.

use super::{BlockData, Ir, NO_NESTED, OpData, OpId, RegionData, Span, Value, ValueData, ValueDef, push_span};
use crate::ir::{BlockId, RegionId};

const UNMAPPED: u32 = u32::MAX;

/// New index of every old op, value, block and region reachable from the
/// root, in pre-order (an op's results stay consecutive).
struct Numbering {
    ops: Vec<u32>,
    values: Vec<u32>,
    blocks: Vec<u32>,
    regions: Vec<u32>,
    op_order: Vec<OpId>,
    value_order: Vec<Value>,
    block_order: Vec<BlockId>,
    region_order: Vec<RegionId>,
}

impl Numbering {
    fn op(&mut self, ir: &Ir, op: OpId) {
        self.ops[op.index()] = self.op_order.len() as u32;
        self.op_order.push(op);
        for &v in ir.results(op) {
            self.value(v);
        }
        for &r in ir.regions(op) {
            self.regions[r.index()] = self.region_order.len() as u32;
            self.region_order.push(r);
            for &b in ir.region_blocks(r) {
                self.blocks[b.index()] = self.block_order.len() as u32;
                self.block_order.push(b);
                for &a in ir.block_args(b) {
                    self.value(a);
                }
                for o in ir.block_ops(b) {
                    self.op(ir, o);
                }
            }
        }
    }

    fn value(&mut self, v: Value) {
        self.values[v.index()] = self.value_order.len() as u32;
        self.value_order.push(v);
    }

    /// Whether every reference out of a live op lands on a live entity (a
    /// use of an erased op's result would otherwise have nowhere to go).
    fn closed(&self, ir: &Ir) -> bool {
        self.op_order.iter().all(|&op| {
            ir.operands(op).iter().all(|v| self.values[v.index()] != UNMAPPED)
                && ir.successors(op).iter().all(|b| self.blocks[b.index()] != UNMAPPED)
        })
    }
}

impl Ir {
    /// Slots in the op arena, erased ops included.
    pub fn op_arena_len(&self) -> usize {
        self.ops.len()
    }

    /// Whether enough of the op arena is erased for [`Ir::compact`] to pay.
    pub fn worth_compacting(&self) -> bool {
        self.ops.len() >= 4096 && self.erased_ops * 2 >= self.ops.len()
    }

    /// Copies the tree under `root` (a top-level op) into fresh arenas and
    /// returns the root's new id; every other op, value, block and region
    /// id becomes invalid. Types, attributes and symbols are untouched. Left
    /// as it is (and `root` returned) when the root has a parent or a live op
    /// refers to something outside the tree.
    pub fn compact(&mut self, root: OpId) -> OpId {
        if self.parent_op(root).is_some() {
            return root;
        }
        let mut n = Numbering {
            ops: vec![UNMAPPED; self.ops.len()],
            values: vec![UNMAPPED; self.values.len()],
            blocks: vec![UNMAPPED; self.blocks.len()],
            regions: vec![UNMAPPED; self.regions.len()],
            op_order: Vec::new(),
            value_order: Vec::new(),
            block_order: Vec::new(),
            region_order: Vec::new(),
        };
        n.op(self, root);
        if !n.closed(self) {
            return root;
        }
        let op_id = |o: OpId| OpId::from_index(n.ops[o.index()] as usize);
        let block_id = |b: BlockId| BlockId::from_index(n.blocks[b.index()] as usize);
        let region_id = |r: RegionId| RegionId::from_index(n.regions[r.index()] as usize);
        let value_id = |v: Value| Value::from_index(n.values[v.index()] as usize);

        let mut operand_pool = Vec::with_capacity(n.op_order.len() * 2);
        let mut region_pool = Vec::new();
        let mut successor_pool = Vec::new();
        let mut nested_pool = Vec::new();
        let mut ops = Vec::with_capacity(n.op_order.len());
        for &old in &n.op_order {
            let o = &self.ops[old.index()];
            let operands: Vec<Value> = self.operands(old).iter().map(|v| value_id(*v)).collect();
            let results = match self.results(old).first() {
                Some(first) => Span { start: n.values[first.index()], len: o.results.len },
                None => Span::default(),
            };
            let nested = if o.nested == NO_NESTED {
                NO_NESTED
            } else {
                let regions: Vec<RegionId> = self.regions(old).iter().map(|r| region_id(*r)).collect();
                let successors: Vec<BlockId> = self.successors(old).iter().map(|b| block_id(*b)).collect();
                nested_pool.push((push_span(&mut region_pool, &regions), push_span(&mut successor_pool, &successors)));
                nested_pool.len() as u32 - 1
            };
            ops.push(OpData {
                name: o.name,
                def: o.def,
                operands: push_span(&mut operand_pool, &operands),
                results,
                nested,
                properties: o.properties,
                attrs: o.attrs,
                loc: o.loc,
                parent: o.parent.map(block_id),
                prev: o.prev.map(op_id),
                next: o.next.map(op_id),
            });
        }
        let values: Vec<ValueData> = n
            .value_order
            .iter()
            .map(|v| {
                let d = &self.values[v.index()];
                let def = match d.def {
                    ValueDef::Result { op, index } => ValueDef::Result { op: op_id(op), index },
                    ValueDef::BlockArg { block, index } => ValueDef::BlockArg { block: block_id(block), index },
                    ValueDef::Placeholder => ValueDef::Placeholder,
                };
                ValueData { ty: d.ty, def }
            })
            .collect();
        let blocks: Vec<BlockData> = n
            .block_order
            .iter()
            .map(|b| {
                let d = &self.blocks[b.index()];
                BlockData {
                    args: d.args.iter().map(|a| value_id(*a)).collect(),
                    arg_locs: d.arg_locs.clone(),
                    first: d.first.map(op_id),
                    last: d.last.map(op_id),
                    parent: d.parent.map(region_id),
                }
            })
            .collect();
        let regions: Vec<RegionData> = n
            .region_order
            .iter()
            .map(|r| {
                let d = &self.regions[r.index()];
                RegionData { blocks: d.blocks.iter().map(|b| block_id(*b)).collect(), parent: d.parent.map(op_id) }
            })
            .collect();
        let new_root = op_id(root);
        self.value_ids = (0..values.len()).map(Value::from_index).collect();
        self.ops = ops;
        self.values = values;
        self.blocks = blocks;
        self.regions = regions;
        self.operand_pool = operand_pool;
        self.region_pool = region_pool;
        self.successor_pool = successor_pool;
        self.nested_pool = nested_pool;
        self.erased_ops = 0;
        new_root
    }
}
