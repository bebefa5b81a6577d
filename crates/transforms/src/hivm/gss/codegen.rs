//! Writing the syncs into the function (spec §4.12, §6.5): each node's
//! "before" syncs go immediately before its anchor in order, its "after"
//! syncs immediately after; a macro's sync slots become `arith.constant`
//! operands; device entries end with `pipe_barrier[<PIPE_ALL>]`.

use rustc_hash::FxHashMap;

use hivm_dialects::hivm::custom;
use hivm_dialects::util::{opaque_attr, segment_attr, segments};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::dialect::Traits;
use hivm_ir::{Attribute, BlockId, Ir, OpId, Value};

use super::emit::{Flag, Maps, SyncOp};
use super::pipes::{self, Pipe};
use super::slots;
use super::tree::{Kind, MmadPart, NodeId, Tree};

/// Where syncs attached to a node go.
enum Anchor {
    Before(OpId),
    After(OpId),
    BlockStart(hivm_ir::BlockId),
    BlockEnd(hivm_ir::BlockId),
}

pub struct CodeGen<'t> {
    tree: &'t Tree,
    func: OpId,
    /// Per macro: the value given to each slot by a complementary sync.
    slot_values: FxHashMap<OpId, Vec<Option<Value>>>,
    /// Per loop: its iteration counter, `counter mod n` per n, and the
    /// selected id per id list.
    counters: FxHashMap<BlockId, Value>,
    modulo: FxHashMap<(BlockId, usize), Value>,
    selects: FxHashMap<(BlockId, Vec<u32>), Value>,
    /// Per local matmul, in the order syncs reached it: the event ids of
    /// the syncs that landed on its L0 loads, by `sync_related_args` slot.
    mmad_args: Vec<(OpId, Vec<Option<Value>>)>,
    /// Per loop: the iteration parity handed to local matmuls in it.
    db_conds: FxHashMap<OpId, Value>,
    regbase: bool,
}

impl<'t> CodeGen<'t> {
    pub fn new(tree: &'t Tree, func: OpId, regbase: bool) -> CodeGen<'t> {
        CodeGen {
            tree,
            func,
            mmad_args: Vec::new(),
            db_conds: FxHashMap::default(),
            regbase,
            slot_values: FxHashMap::default(),
            counters: FxHashMap::default(),
            modulo: FxHashMap::default(),
            selects: FxHashMap::default(),
        }
    }

    fn anchor(&self, ir: &Ir, node: NodeId, after: bool) -> Anchor {
        let n = &self.tree.nodes[node];
        let entry = ir.region_blocks(ir.regions(self.func)[0])[0];
        if n.parent == Some(self.tree.root) {
            return if after {
                Anchor::Before(terminator(ir, last_block(ir, self.func)))
            } else {
                Anchor::BlockStart(entry)
            };
        }
        if n.kind == Kind::PlaceHolder {
            if let Some(b) = n.ph.block {
                return if n.ph.begin { Anchor::BlockStart(b) } else { Anchor::BlockEnd(b) };
            }
            let linked = n.ph.before.or(n.ph.after).expect("a placeholder anchors something");
            let op = self.tree.nodes[linked].op.expect("a loop has an op");
            return if after { Anchor::After(op) } else { Anchor::Before(op) };
        }
        let op = n.op.expect("an anchored node has an op");
        if after { Anchor::After(op) } else { Anchor::Before(op) }
    }

    fn loc(&self, ir: &Ir, node: NodeId) -> Attribute {
        let mut n = node;
        loop {
            let d = &self.tree.nodes[n];
            if d.kind == Kind::PlaceHolder {
                if let Some(b) = d.ph.block {
                    let r = ir.block(b).parent.expect("a block in a region");
                    return ir.loc(ir.region_parent(r).expect("a region in an op"));
                }
                let linked = d.ph.before.or(d.ph.after).unwrap();
                return ir.loc(self.tree.nodes[linked].op.unwrap());
            }
            if let Some(op) = d.op {
                return ir.loc(op);
            }
            match d.parent {
                Some(p) => n = p,
                None => return ir.loc(self.func),
            }
        }
    }

    /// Inserts `op` at the anchor, after the ops inserted there before it.
    fn place(ir: &mut Ir, anchor: &mut Anchor, op: OpId) {
        match *anchor {
            Anchor::Before(a) => ir.insert_op_before(a, op),
            Anchor::After(a) => {
                ir.insert_op_after(a, op);
                *anchor = Anchor::After(op);
            }
            Anchor::BlockStart(b) => match ir.block(b).first {
                Some(first) => {
                    ir.insert_op_before(first, op);
                    *anchor = Anchor::After(op);
                }
                None => {
                    ir.append_op(b, op);
                    *anchor = Anchor::After(op);
                }
            },
            Anchor::BlockEnd(b) => match ir.block(b).last.filter(|l| is_terminator(ir, *l)) {
                Some(t) => ir.insert_op_before(t, op),
                None => ir.append_op(b, op),
            },
        }
    }

    pub fn generate(
        &mut self,
        ir: &mut Ir,
        mut maps: Maps,
        flags: &[(OpId, super::unit_flag::Info, u32)],
        device_entry: bool,
    ) {
        // Syncs after a block's begin or end placeholder go before it.
        let moves: Vec<(NodeId, Vec<SyncOp>)> = maps
            .after
            .entries
            .iter_mut()
            .filter(|(n, _)| {
                let d = &self.tree.nodes[*n];
                d.kind == Kind::PlaceHolder && d.ph.block.is_some()
            })
            .map(|(n, ops)| (*n, ops.drain(..).collect()))
            .collect();
        for (n, ops) in moves {
            maps.before.at(n).extend(ops);
        }
        for (node, ops) in &maps.before.entries {
            if self.mmad_load(*node).is_some() {
                for op in ops {
                    self.mmad_sync(ir, *node, op, false);
                }
                continue;
            }
            let mut anchor = self.anchor(ir, *node, false);
            let loc = self.loc(ir, *node);
            for op in ops {
                self.emit(ir, *node, op, &mut anchor, loc, true);
            }
        }
        for (node, ops) in &maps.after.entries {
            if self.mmad_load(*node).is_some() {
                for op in ops.iter().rev() {
                    self.mmad_sync(ir, *node, op, true);
                }
                continue;
            }
            let loc = self.loc(ir, *node);
            for op in ops.iter().rev() {
                let mut anchor = self.anchor(ir, *node, true);
                self.emit(ir, *node, op, &mut anchor, loc, false);
            }
        }
        self.fill_mmad_args(ir);
        self.fill_slots(ir, &maps.slot_ids);
        self.matmul_handshakes(ir);
        for (op, info, group) in flags {
            super::unit_flag::emit(ir, *op, info, *group);
        }
        if device_entry {
            let ret = terminator(ir, last_block(ir, self.func));
            let loc = ir.loc(ret);
            let op = barrier(ir, pipes::ALL, loc);
            ir.insert_op_before(ret, op);
        }
    }

    fn emit(&mut self, ir: &mut Ir, node: NodeId, s: &SyncOp, anchor: &mut Anchor, loc: Attribute, before: bool) {
        match s {
            SyncOp::Barrier(p) => {
                let op = barrier(ir, *p, loc);
                Self::place(ir, anchor, op);
            }
            SyncOp::Set(f) | SyncOp::Wait(f) => {
                let is_set = matches!(s, SyncOp::Set(_));
                let at = anchor_block(ir, anchor);
                self.record_slot_value(ir, node, f, is_set, at, before);
                let name = if is_set { "hivm.hir.set_flag" } else { "hivm.hir.wait_flag" };
                if !f.all_at_once && f.ids.len() > 1 {
                    let at = anchor_block(ir, anchor);
                    let v = self.select(ir, f, at);
                    let op = dynamic_flag_op(ir, name, f.src, f.dst, v, loc);
                    Self::place(ir, anchor, op);
                    return;
                }
                for id in &f.ids {
                    let op = flag_op(ir, name, f.src, f.dst, *id, loc);
                    Self::place(ir, anchor, op);
                }
            }
        }
    }

    /// A set (for a `wait` slot) or wait (for a `set` slot) attached to a
    /// macro on the slot's pipe pair passes its id to the macro.
    fn record_slot_value(&mut self, ir: &mut Ir, node: NodeId, f: &Flag, is_set: bool, at: BlockId, before: bool) {
        let Some(op) = self.tree.nodes[node].op.filter(|o| ir.is_op(*o, custom::MACRO)) else { return };
        let slots = slots::slots_of(ir, op);
        if slots.is_empty() {
            return;
        }
        for (i, slot) in slots.iter().enumerate() {
            let complementary = match slot.mode {
                hivm_dialects::hivm::attrs::MacroSync::Wait => is_set,
                hivm_dialects::hivm::attrs::MacroSync::Set => !is_set,
                hivm_dialects::hivm::attrs::MacroSync::Internal => false,
            };
            // The partner of a wait slot is a set before the macro, of a set
            // slot a wait after it (upstream also takes a set the solver
            // put after the macro for its own pair, handing the macro an id
            // its wait never receives).
            if !slot.explicit || slot.src != f.src || slot.dst != f.dst || !complementary || before != is_set {
                continue;
            }
            let v = if f.ids.len() > 1 {
                self.select(ir, f, at)
            } else {
                self.function_constant(ir, f.ids[0] as i64, ir.loc(op))
            };
            let values = self.slot_values.entry(op).or_insert_with(|| vec![None; slots.len()]);
            values[i] = Some(v);
        }
    }

    /// The event id a rotating sync uses in the current iteration: the
    /// loop's counter modulo the number of ids picks one of them (upstream's
    /// multi-buffer select, built once per loop and id list at the head of
    /// the loop body).
    fn select(&mut self, ir: &mut Ir, f: &Flag, at: BlockId) -> Value {
        let lp = self.tree.nodes[f.multi_buffer_loop.expect("rotating ids have a loop")].op.expect("a loop op");
        // The loop region the sync sits in (a while loop's before or after
        // region; values of one do not dominate the other), else the last.
        let mut region = ir.block(at).parent;
        while let Some(r) = region {
            match ir.region_parent(r) {
                Some(p) if p == lp => break,
                Some(p) => region = ir.parent_block(p).and_then(|b| ir.block(b).parent),
                None => region = None,
            }
        }
        let region = region.unwrap_or_else(|| *ir.regions(lp).last().expect("a loop has a body"));
        let body = ir.region_blocks(region)[0];
        if let Some(v) = self.selects.get(&(body, f.ids.clone())) {
            return *v;
        }
        let loc = ir.loc(lp);
        let n = f.ids.len();
        let counter = self.counter(ir, body, loc);
        let index = match self.modulo.get(&(body, n)) {
            Some(v) => *v,
            None => {
                let (i64t, idx) = (ir.int_type(64), ir.index_type());
                let after = ir.defining_op(counter).expect("the counter is an op result");
                let nattr = ir.int_attr(n as i128, i64t);
                let mut b = Builder::new(ir, InsertPoint::After(after));
                let cn = b.op("arith.constant", &[], &[i64t], vec![("value", nattr)], loc);
                let cn = b.ir.result(cn, 0);
                let rem = b.op("arith.remui", &[counter, cn], &[i64t], vec![], loc);
                let rem = b.ir.result(rem, 0);
                let cast = b.op("arith.index_cast", &[rem], &[idx], vec![], loc);
                let v = b.ir.result(cast, 0);
                self.modulo.insert((body, n), v);
                v
            }
        };
        let i64t = ir.int_type(64);
        let after = ir.defining_op(index).expect("the index is an op result");
        let mut b = Builder::new(ir, InsertPoint::After(after));
        let v = if n == 2 {
            let i1 = b.ir.int_type(1);
            let c = b.op("arith.index_cast", &[index], &[i1], vec![], loc);
            let c = b.ir.result(c, 0);
            let mut ids = Vec::new();
            for id in &f.ids {
                let a = b.ir.int_attr(*id as i128, i64t);
                let k = b.op("arith.constant", &[], &[i64t], vec![("value", a)], loc);
                ids.push(b.ir.result(k, 0));
            }
            let s = b.op("arith.select", &[c, ids[0], ids[1]], &[i64t], vec![], loc);
            b.ir.result(s, 0)
        } else {
            let mut selected: Option<Value> = None;
            let idx = b.ir.index_type();
            for (i, id) in f.ids.iter().enumerate() {
                let a = b.ir.int_attr(*id as i128, i64t);
                let k = b.op("arith.constant", &[], &[i64t], vec![("value", a)], loc);
                let k = b.ir.result(k, 0);
                let Some(prev) = selected else {
                    selected = Some(k);
                    continue;
                };
                let ia = b.ir.int_attr(i as i128, idx);
                let iv = b.op("arith.constant", &[], &[idx], vec![("value", ia)], loc);
                let iv = b.ir.result(iv, 0);
                let (t64, t1) = (b.ir.int_type(64), b.ir.int_type(1));
                let pred = b.ir.int_attr(0, t64);
                let eq = b.op("arith.cmpi", &[index, iv], &[t1], vec![("predicate", pred)], loc);
                let eq = b.ir.result(eq, 0);
                let s = b.op("arith.select", &[eq, k, prev], &[i64t], vec![], loc);
                selected = Some(b.ir.result(s, 0));
            }
            selected.expect("at least one id")
        };
        self.selects.insert((body, f.ids.clone()), v);
        v
    }

    /// The local matmul whose L0 load `node` is, with the load.
    fn mmad_load(&self, node: NodeId) -> Option<(OpId, MmadPart)> {
        let n = &self.tree.nodes[node];
        let part = n.mmad.filter(|p| !matches!(p, MmadPart::Body | MmadPart::Mmad))?;
        let inner = n.parent?;
        let body = self.tree.nodes[inner].parent?;
        Some((self.tree.nodes[body].op?, part))
    }

    /// A sync that landed on a local matmul's L0 load: its id goes to the
    /// matmul's slot for that load (upstream emits no op for it).
    fn mmad_sync(&mut self, ir: &mut Ir, node: NodeId, s: &SyncOp, is_set: bool) {
        let (op, part) = self.mmad_load(node).expect("a matmul load");
        let f = match s {
            SyncOp::Set(f) | SyncOp::Wait(f) => f,
            // Loads only read, so no same-pipe order ends on one; should one,
            // the barrier still goes before the matmul.
            SyncOp::Barrier(p) => {
                let b = barrier(ir, *p, ir.loc(op));
                ir.insert_op_before(op, b);
                return;
            }
        };
        let mx = ir.is_op(op, "hivm.hir.mmadmxL1");
        let order: &[MmadPart] = if mx {
            &[MmadPart::LoadA, MmadPart::LoadAScale, MmadPart::LoadB, MmadPart::LoadBScale]
        } else {
            &[MmadPart::LoadA, MmadPart::LoadB]
        };
        let Some(k) = order.iter().position(|p| *p == part) else { return };
        let slot = if is_set { order.len() + k } else { k };
        let v = if f.ids.len() > 1 {
            let at = ir.parent_block(op).expect("a matmul in a block");
            self.select(ir, f, at)
        } else {
            self.function_constant(ir, f.ids[0] as i64, ir.loc(op))
        };
        let slots = if mx { 8 } else { 4 };
        match self.mmad_args.iter_mut().find(|(o, _)| *o == op) {
            Some((_, vals)) => vals[slot] = Some(v),
            None => {
                let mut vals = vec![None; slots];
                vals[slot] = Some(v);
                self.mmad_args.push((op, vals));
            }
        }
    }

    /// Writes the `sync_related_args` of every local matmul a sync landed
    /// on: the load slots (-1 where none), then for `mmadL1` on
    /// memory-based targets the parity of the enclosing loop's iteration
    /// and the ids 0 and 1 its internal double buffering uses.
    fn fill_mmad_args(&mut self, ir: &mut Ir) {
        // On memory-based targets every mmadL1 takes the ids of the M ->
        // MTE1 bracket the solver puts around the matmuls: one given none
        // (no sync landed on its loads) would run its library's own
        // prologue, setting those ids again while the bracket's sets are
        // still pending (upstream leaves such a matmul without arguments).
        if !self.regbase {
            let mut all = Vec::new();
            ir.walk(self.func, &mut |o| {
                if ir.is_op(o, "hivm.hir.mmadL1") {
                    all.push(o);
                }
            });
            for op in all {
                if !self.mmad_args.iter().any(|(o, _)| *o == op) {
                    self.mmad_args.push((op, vec![None; 4]));
                }
            }
        }
        for (op, vals) in std::mem::take(&mut self.mmad_args) {
            let loc = ir.loc(op);
            let default = constant(ir, InsertPoint::Before(op), -1, loc);
            let mx = ir.is_op(op, "hivm.hir.mmadmxL1");
            let mut args: Vec<Value> = vals.iter().map(|v| v.unwrap_or(default)).collect();
            if !mx {
                if self.regbase {
                    args.extend([default; 3]);
                } else {
                    let (cond, ip) = self.loop_parity(ir, op);
                    let b0 = constant(ir, ip, 0, loc);
                    let after = ir.defining_op(b0).expect("a constant");
                    let b1 = constant(ir, InsertPoint::After(after), 1, loc);
                    args.extend([cond.unwrap_or(default), b0, b1]);
                }
            }
            set_segment(ir, op, if mx { 9 } else { 7 }, &args);
            erase_if_unused(ir, default, &args);
        }
    }

    /// The iteration counter of the innermost loop around `op` as an i64
    /// (one per loop, made at the head of its body), and where the next
    /// constants of `op` go: upstream leaves its insertion point after the
    /// counter when it makes one. None outside loops or inside a loop
    /// that is not `scf.for` / `scf.while`.
    fn loop_parity(&mut self, ir: &mut Ir, op: OpId) -> (Option<Value>, InsertPoint) {
        let here = InsertPoint::Before(op);
        let mut loops = Vec::new();
        let mut cur = ir.parent_op(op);
        while let Some(p) = cur.filter(|p| *p != self.func) {
            if matches!(ir.op_name(p), "scf.for" | "scf.while" | "scf.parallel" | "scf.forall") {
                loops.push(p);
            }
            cur = ir.parent_op(p);
        }
        if loops.is_empty() || loops.iter().any(|l| !matches!(ir.op_name(*l), "scf.for" | "scf.while")) {
            return (None, here);
        }
        let lp = loops[0];
        if let Some(v) = self.db_conds.get(&lp) {
            return (Some(*v), here);
        }
        // The body block holding `op` (a while loop has two regions).
        let block = crate::hivm::block_in(ir, lp, op);
        let existing = {
            let mut c = ir.block(block).first;
            let mut found = None;
            while let Some(o) = c {
                if ir.is_op(o, "hivm.hir.multi_buffer_counter") {
                    found = Some(ir.result(o, 0));
                    break;
                }
                c = ir.next_op(o);
            }
            found
        };
        let loc = ir.loc(lp);
        let counter = match existing {
            Some(c) => c,
            None => self.counter(ir, block, loc),
        };
        let at = ir.defining_op(counter).expect("the counter is an op result");
        let (idx, i64t) = (ir.index_type(), ir.int_type(64));
        let mut b = Builder::new(ir, InsertPoint::After(at));
        let i = b.op("arith.index_cast", &[counter], &[idx], vec![], loc);
        let iv = b.ir.result(i, 0);
        let mut b = Builder::new(ir, InsertPoint::After(i));
        let k = b.op("arith.index_cast", &[iv], &[i64t], vec![], loc);
        let kv = ir.result(k, 0);
        self.db_conds.insert(lp, kv);
        (Some(kv), InsertPoint::After(k))
    }

    /// The handshake between the matmuls' M and MTE1 work (ids 0 and 1,
    /// which the matmul library alternates): set before the first local
    /// matmul's outermost op, waited after the last one's.
    fn matmul_handshakes(&self, ir: &mut Ir) {
        let mut mmads = Vec::new();
        ir.walk(self.func, &mut |o| {
            if matches!(ir.op_name(o), "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" | "hivm.hir.mmadmxL1") {
                mmads.push(o);
            }
        });
        let (Some(&first), Some(&last)) = (mmads.first(), mmads.last()) else { return };
        let top = |ir: &Ir, mut o: OpId| {
            while let Some(p) = ir.parent_op(o).filter(|p| *p != self.func) {
                o = p;
            }
            o
        };
        let (a, b) = (top(ir, first), top(ir, last));
        let loc = ir.loc(self.func);
        for id in [0, 1] {
            let op = flag_op(ir, "hivm.hir.set_flag", pipes::M, pipes::MTE1, id, loc);
            ir.insert_op_before(a, op);
        }
        let mut at = b;
        for id in [0, 1] {
            let op = flag_op(ir, "hivm.hir.wait_flag", pipes::M, pipes::MTE1, id, loc);
            ir.insert_op_after(at, op);
            at = op;
        }
    }

    /// An `i64` constant at the very start of the function.
    fn function_constant(&self, ir: &mut Ir, v: i64, loc: Attribute) -> Value {
        let entry = ir.region_blocks(ir.regions(self.func)[0])[0];
        let ip = InsertPoint::start(ir, entry);
        constant(ir, ip, v, loc)
    }

    fn fill_slots(&self, ir: &mut Ir, resolved: &[(OpId, Vec<i64>)]) {
        let mut macros = Vec::new();
        ir.walk(self.func, &mut |o| {
            if ir.is_op(o, custom::MACRO) {
                macros.push(o);
            }
        });
        for op in macros {
            let slots = slots::slots_of(ir, op);
            let loc = ir.loc(op);
            let default = constant(ir, InsertPoint::Before(op), -1, loc);
            let given = self.slot_values.get(&op);
            let ids = resolved.iter().find(|(o, _)| *o == op).map(|(_, v)| v.as_slice()).unwrap_or(&[]);
            let mut args = Vec::new();
            for (i, slot) in slots.iter().enumerate() {
                let v = if let Some(v) = given.and_then(|g| g[i]) {
                    v
                } else if let Some(id) = ids.get(i).filter(|id| **id >= 0) {
                    constant(ir, InsertPoint::Before(op), *id, loc)
                } else if let Some(p) = slot.pinned {
                    constant(ir, InsertPoint::Before(op), p as i64, loc)
                } else {
                    default
                };
                args.push(v);
            }
            set_segment(ir, op, 3, &args);
            erase_if_unused(ir, default, &args);
        }
    }

    /// The iteration counter at the head of loop body `block` (made once).
    fn counter(&mut self, ir: &mut Ir, block: BlockId, loc: Attribute) -> Value {
        if let Some(c) = self.counters.get(&block) {
            return *c;
        }
        let i64t = ir.int_type(64);
        let mut b = Builder::new(ir, InsertPoint::start(ir, block));
        let c = b.op("hivm.hir.multi_buffer_counter", &[], &[i64t], vec![], loc);
        let v = ir.result(c, 0);
        self.counters.insert(block, v);
        v
    }
}

/// Replaces operand group `group` of `op` (`sync_related_args` of a macro
/// or a matmul) with `values`.
pub(super) fn set_segment(ir: &mut Ir, op: OpId, group: usize, values: &[Value]) {
    let mut sizes = segments(ir, op);
    if sizes.len() <= group {
        sizes.resize(group + 1, 0);
    }
    let mut operands = Vec::new();
    for i in 0..sizes.len() {
        if i == group {
            operands.extend_from_slice(values);
        } else {
            operands.extend_from_slice(hivm_dialects::util::segment(ir, op, i));
        }
    }
    sizes[group] = values.len();
    ir.set_operands(op, &operands);
    let seg = segment_attr(ir, &sizes);
    ir.set_attr(op, "operandSegmentSizes", seg);
}

/// The block an anchor inserts into.
fn anchor_block(ir: &Ir, a: &Anchor) -> BlockId {
    match *a {
        Anchor::Before(op) | Anchor::After(op) => ir.parent_block(op).expect("an anchored op is in a block"),
        Anchor::BlockStart(b) | Anchor::BlockEnd(b) => b,
    }
}

fn last_block(ir: &Ir, func: OpId) -> hivm_ir::BlockId {
    *ir.region_blocks(ir.regions(func)[0]).last().expect("a function body")
}

fn is_terminator(ir: &Ir, op: OpId) -> bool {
    ir.op_def(op).is_some_and(|d| d.traits.has(Traits::TERMINATOR))
}

fn terminator(ir: &Ir, b: hivm_ir::BlockId) -> OpId {
    ir.block(b).last.expect("a block ends with a terminator")
}

/// Removes the `-1` made for unfilled slots when every slot got an id. It is
/// made first, where upstream makes it, so that when it is used the output
/// keeps upstream's order; unused, it would be a dead constant.
fn erase_if_unused(ir: &mut Ir, default: Value, args: &[Value]) {
    if !args.contains(&default) {
        let op = ir.defining_op(default).expect("a constant");
        ir.erase_op(op);
    }
}

fn constant(ir: &mut Ir, ip: InsertPoint, v: i64, loc: Attribute) -> Value {
    let i64t = ir.int_type(64);
    let attr = ir.int_attr(v as i128, i64t);
    let mut b = Builder::new(ir, ip);
    let c = b.op("arith.constant", &[], &[i64t], vec![("value", attr)], loc);
    ir.result(c, 0)
}

fn pipe_attr(ir: &mut Ir, p: Pipe) -> Attribute {
    opaque_attr(ir, "hivm", &format!("pipe<{}>", pipes::name(p)))
}

fn barrier(ir: &mut Ir, p: Pipe, loc: Attribute) -> OpId {
    let a = pipe_attr(ir, p);
    let mut b = Builder::new(ir, InsertPoint::Nowhere);
    b.op("hivm.hir.pipe_barrier", &[], &[], vec![("pipe", a)], loc)
}

fn dynamic_flag_op(ir: &mut Ir, name: &str, src: Pipe, dst: Pipe, id: Value, loc: Attribute) -> OpId {
    let (s, d) = (pipe_attr(ir, src), pipe_attr(ir, dst));
    let mut b = Builder::new(ir, InsertPoint::Nowhere);
    b.op(name, &[id], &[], vec![("set_pipe", s), ("wait_pipe", d)], loc)
}

fn flag_op(ir: &mut Ir, name: &str, src: Pipe, dst: Pipe, id: u32, loc: Attribute) -> OpId {
    let (s, d) = (pipe_attr(ir, src), pipe_attr(ir, dst));
    let e = opaque_attr(ir, "hivm", &format!("event<EVENT_ID{id}>"));
    let mut b = Builder::new(ir, InsertPoint::Nowhere);
    b.op(name, &[], &[], vec![("set_pipe", s), ("wait_pipe", d), ("static_event_id", e)], loc)
}
