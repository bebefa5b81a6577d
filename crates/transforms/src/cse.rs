//! Common subexpression elimination of side-effect-free ops, scoped by
//! dominance like MLIR's `-cse`: values from enclosing single-block scopes stay
//! available in nested regions; isolated-from-above ops start afresh. An op
//! with regions (each of at most one block) is merged, as MLIR's CSE merges
//! it, with an earlier one whose regions are the same op for op — after its
//! own regions have been simplified.

use std::hash::{BuildHasher, Hash, Hasher};

use hashbrown::HashTable;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, RegionId, Traits, Value};

/// Ops available for reuse, keyed by what makes two ops interchangeable
/// (name, operands, attributes, result types), hashed and compared straight
/// from the IR so that no key is built per op.
type Table = HashTable<OpId>;

fn candidate(ir: &Ir, op: OpId) -> bool {
    ir.op_def(op).is_some_and(|def| {
        ir.is_side_effect_free(op)
            && ir.regions(op).iter().all(|r| ir.region_blocks(*r).len() <= 1)
            && !def.has(Traits::TERMINATOR)
    })
}

/// Whether the regions of `a` and `b` are the same, block argument for
/// block argument and op for op (values from outside them identical).
fn same_regions(ir: &Ir, a: OpId, b: OpId) -> bool {
    let (ra, rb) = (ir.regions(a), ir.regions(b));
    let mut map: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
    ra.len() == rb.len() && ra.iter().zip(rb).all(|(x, y)| same_region(ir, *x, *y, &mut map))
}

fn same_region(ir: &Ir, x: RegionId, y: RegionId, map: &mut rustc_hash::FxHashMap<Value, Value>) -> bool {
    let (bx, by) = (ir.region_blocks(x), ir.region_blocks(y));
    if bx.len() != by.len() || bx.len() > 1 {
        return false;
    }
    for (p, q) in bx.iter().zip(by) {
        let (ap, aq) = (ir.block_args(*p), ir.block_args(*q));
        if ap.len() != aq.len() || ap.iter().zip(aq).any(|(u, v)| ir.value_type(*u) != ir.value_type(*v)) {
            return false;
        }
        for (u, v) in ap.iter().zip(aq) {
            map.insert(*u, *v);
        }
        let (ox, oy): (Vec<OpId>, Vec<OpId>) = (ir.block_ops(*p).collect(), ir.block_ops(*q).collect());
        if ox.len() != oy.len() {
            return false;
        }
        for (o1, o2) in ox.into_iter().zip(oy) {
            let (d1, d2) = (ir.op(o1), ir.op(o2));
            let operands_match = ir.operands(o1).len() == ir.operands(o2).len()
                && ir.operands(o1).iter().zip(ir.operands(o2)).all(|(u, v)| map.get(u).unwrap_or(u) == v);
            let (r1, r2) = (ir.results(o1), ir.results(o2));
            if d1.name != d2.name
                || d1.properties != d2.properties
                || d1.attrs != d2.attrs
                || !operands_match
                || r1.len() != r2.len()
                || r1.iter().zip(r2).any(|(u, v)| ir.value_type(*u) != ir.value_type(*v))
            {
                return false;
            }
            for (u, v) in r1.iter().zip(r2) {
                map.insert(*u, *v);
            }
            let (n1, n2) = (ir.regions(o1), ir.regions(o2));
            if n1.len() != n2.len() || !n1.iter().zip(n2).all(|(a, b)| same_region(ir, *a, *b, map)) {
                return false;
            }
        }
    }
    true
}

fn hash_op(ir: &Ir, op: OpId) -> u64 {
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    let o = ir.op(op);
    (o.name, o.properties, o.attrs).hash(&mut h);
    ir.operands(op).hash(&mut h);
    for v in ir.results(op) {
        ir.value_type(*v).hash(&mut h);
    }
    h.finish()
}

fn same_op(ir: &Ir, a: OpId, b: OpId) -> bool {
    let (x, y) = (ir.op(a), ir.op(b));
    let (rx, ry) = (ir.results(a), ir.results(b));
    x.name == y.name
        && x.properties == y.properties
        && x.attrs == y.attrs
        && ir.operands(a) == ir.operands(b)
        && rx.len() == ry.len()
        && rx.iter().zip(ry).all(|(p, q)| ir.value_type(*p) == ir.value_type(*q))
        && (ir.regions(a).is_empty() && ir.regions(b).is_empty() || same_regions(ir, a, b))
}

#[derive(Default)]
pub struct Cse {
    /// Replacement of each merged value, indexed by value.
    replaced: Vec<Option<Value>>,
    /// Indices set in `replaced` by the current run.
    merged: Vec<usize>,
}

impl Cse {
    /// `replaced` collects the merges (indexed by value: a dense vector, as
    /// a large function merges many); operands are remapped as ops are
    /// visited (definitions come first in dominance order), and one sweep at
    /// the end catches any use the walk met earlier.
    fn region(&mut self, ir: &mut Ir, r: RegionId, scope: &mut Vec<Table>, replaced: &mut Vec<Option<Value>>) {
        let blocks = ir.region_blocks(r).to_vec();
        let inherit = blocks.len() == 1;
        for b in blocks {
            if !inherit {
                scope.push(Table::new());
            }
            scope.push(Table::new());
            let ops: Vec<OpId> = ir.block_ops(b).collect();
            for op in ops {
                ir.remap_operands_with(op, |v| replaced.get(v.index()).copied().flatten());
                // Nested regions first, as MLIR's CSE does, so that two ops
                // with regions compare their simplified bodies.
                let isolated = ir.op_def(op).is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE));
                for nr in ir.regions(op).to_vec() {
                    if isolated {
                        let mut fresh = Vec::new();
                        self.region(ir, nr, &mut fresh, replaced);
                    } else {
                        self.region(ir, nr, scope, replaced);
                    }
                }
                if candidate(ir, op) {
                    let hash = hash_op(ir, op);
                    let ir_ref: &Ir = ir;
                    let prev = scope.iter().rev().find_map(|t| t.find(hash, |&p| same_op(ir_ref, p, op)).copied());
                    if let Some(prev) = prev {
                        for (o, n) in ir.results(op).iter().zip(ir.results(prev)) {
                            replaced[o.index()] = Some(*n);
                            self.merged.push(o.index());
                        }
                        ir.erase_op(op);
                        continue;
                    }
                    scope.last_mut().unwrap().insert_unique(hash, op, |&p| hash_op(ir_ref, p));
                }
            }
            scope.pop();
            if !inherit {
                scope.pop();
            }
        }
    }
}

impl Pass for Cse {
    fn name(&self) -> &str {
        "cse"
    }

    fn display_name(&self) -> &str {
        "CSE"
    }

    fn run(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        // Kept across runs (a nested pipeline runs once per function) and
        // cleared entry by entry, so many small functions stay linear.
        let mut replaced = std::mem::take(&mut self.replaced);
        replaced.resize(ir.value_count(), None);
        for r in ir.regions(op).to_vec() {
            let mut scope = Vec::new();
            self.region(ir, r, &mut scope, &mut replaced);
        }
        let merged: Vec<usize> = self.merged.drain(..).collect();
        if !merged.is_empty() {
            ir.replace_uses_with(op, |v| replaced[v.index()]);
        }
        for i in merged {
            replaced[i] = None;
        }
        self.replaced = replaced;
        Ok(())
    }
}
