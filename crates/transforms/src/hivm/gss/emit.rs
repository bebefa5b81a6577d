//! From chosen pairs to syncs (spec §4.11, §6.4): the final event ids, the
//! syncs to put before and after each node, loop-level prologue/epilogue
//! events (hoisted outward where nothing else uses their ids), and the
//! boundary syncs of `custom_macro` slots.

use std::collections::{BTreeSet, VecDeque};

use rustc_hash::FxHashMap;

use hivm_dialects::hivm::attrs::MacroSync;
use hivm_dialects::hivm::custom;
use hivm_ir::OpId;

use super::events::pair_entry;
use super::pipes::{self, Pipe};
use super::slots;
use super::solver::Solver;
use super::tree::{Kind, NodeId};

#[derive(Clone, Debug)]
pub enum SyncOp {
    Barrier(Pipe),
    Set(Flag),
    Wait(Flag),
}

#[derive(Clone, Debug)]
pub struct Flag {
    pub src: Pipe,
    pub dst: Pipe,
    pub ids: Vec<u32>,
    /// One static op per id (loop prologue/epilogue), not a rotating id.
    pub all_at_once: bool,
    /// For rotating ids: the loop whose iterations choose them.
    pub multi_buffer_loop: Option<NodeId>,
}

/// Syncs attached to nodes, in first-use order of the nodes.
#[derive(Default, Debug)]
pub struct SyncMap {
    pub entries: Vec<(NodeId, VecDeque<SyncOp>)>,
    index: FxHashMap<NodeId, usize>,
}

impl SyncMap {
    pub fn at(&mut self, n: NodeId) -> &mut VecDeque<SyncOp> {
        let i = *self.index.entry(n).or_insert_with(|| {
            self.entries.push((n, VecDeque::new()));
            self.entries.len() - 1
        });
        &mut self.entries[i].1
    }

    pub fn get(&self, n: NodeId) -> Option<&VecDeque<SyncOp>> {
        self.index.get(&n).map(|i| &self.entries[*i].1)
    }
}

/// An error, at an op where there is one.
pub type Located = (Option<OpId>, String);

/// Per macro, the event id each slot resolved to (-1: none).
pub type SlotIds = Vec<(OpId, Vec<i64>)>;

pub struct Maps {
    pub before: SyncMap,
    pub after: SyncMap,
    pub slot_ids: SlotIds,
}

/// Final ids, sync maps and loop-level events of the current solution.
pub fn collect(s: &mut Solver) -> Result<Maps, Located> {
    for ((src, dst), solver) in s.colours.iter_mut() {
        solver.assign().map_err(|e| {
            (None, format!("event ids of {} -> {} could not be assigned ({e:?})", pipes::name(*src), pipes::name(*dst)))
        })?;
    }
    // Pins the solver had to honour.
    for &p in &s.chosen {
        let pair = &s.pairs[p];
        if let (Some(pin), Some(node), false) = (pair.pinned, pair.colour, pair.useless) {
            let ids = s.colours[&(pair.src, pair.dst)].ids(node);
            if ids != [pin] {
                return Err((
                    pair.op1.and_then(|n| s.op_of(n)),
                    "GraphSyncSolver assigned a different event id than the one pinned by custom_macro".into(),
                ));
            }
        }
    }
    let t = &s.tree;
    let mut before = SyncMap::default();
    let mut after = SyncMap::default();
    for &p in s.chosen.iter().chain(&s.persistent) {
        let pair = &s.pairs[p];
        if pair.useless {
            continue;
        }
        let (Some(set), Some(wait)) = (pair.set_node(t), pair.wait_node(t)) else { continue };
        if pair.is_barrier() {
            before.at(wait).push_back(SyncOp::Barrier(pair.dst));
        } else {
            let node = pair.colour.expect("a chosen set/wait has a colour");
            let flag = Flag {
                src: pair.src,
                dst: pair.dst,
                ids: s.colours[&(pair.src, pair.dst)].ids(node).to_vec(),
                all_at_once: false,
                multi_buffer_loop: pair.ids.multi_buffer_loop,
            };
            after.at(set).push_back(SyncOp::Set(flag.clone()));
            before.at(wait).push_front(SyncOp::Wait(flag));
        }
    }
    // Loop-level backward events.
    s.backward_events.clear();
    for &p in &s.chosen {
        let pair = &s.pairs[p];
        if pair.useless || !pair.inner_backward {
            continue;
        }
        let Some(node) = pair.colour else { continue };
        let lp = pair.backward_loop.expect("a backward pair has a loop");
        let ids = s.colours[&(pair.src, pair.dst)].ids(node).to_vec();
        let e = pair_entry(s.backward_events.entry(lp), (pair.src, pair.dst));
        for id in ids {
            e.entry(id).or_insert(1);
        }
    }
    merge_backward(s, &before, &after);
    for (scope, pairs) in s.backward_events.iter() {
        let keys: Vec<(Pipe, Pipe)> = pairs.iter().filter(|(_, ids)| !ids.is_empty()).map(|(k, _)| *k).collect();
        for (src, dst) in pipes::dense_map_order(&keys, |(a, b)| pipes::pair_hash(a, b)) {
            let ids_map = &pairs.iter().find(|(k, _)| *k == (src, dst)).unwrap().1;
            let mut ids: Vec<u32> = ids_map.iter().flat_map(|(id, n)| std::iter::repeat_n(*id, *n as usize)).collect();
            ids.sort();
            let flag = Flag { src, dst, ids, all_at_once: true, multi_buffer_loop: None };
            before.at(*scope).push_back(SyncOp::Set(flag.clone()));
            after.at(*scope).push_front(SyncOp::Wait(flag));
        }
    }
    let slot_ids = inject_macro_syncs(s, &mut before, &mut after)?;
    Ok(Maps { before, after, slot_ids })
}

// ----- hoisting loop-level events outward (mergeBackwardSyncEventIds) -----

/// Positions of every set/wait per (src, dst, id) in a walk of the tree,
/// with each node's span: [start_incl, start) holds what sits before it,
/// [end, end_incl) what sits after it.
struct SetWaitIndex {
    at: FxHashMap<(Pipe, Pipe, u32), BTreeSet<usize>>,
    spans: FxHashMap<NodeId, [usize; 4]>,
    /// Every key that has a set or wait, in upstream's visiting order
    /// (id, then source pipe, then destination pipe).
    keys: Vec<(Pipe, Pipe, u32)>,
    /// The solver's `after_merge`, by scope.
    merged: FxHashMap<NodeId, Vec<(Pipe, Pipe)>>,
}

impl SetWaitIndex {
    fn build(s: &Solver, before: &SyncMap, after: &SyncMap) -> SetWaitIndex {
        let mut ix = SetWaitIndex {
            at: FxHashMap::default(),
            spans: FxHashMap::default(),
            keys: Vec::new(),
            merged: FxHashMap::default(),
        };
        let mut n = 0;
        ix.visit(s, s.tree.root, before, after, &mut n);
        ix.keys = ix.at.keys().copied().filter(|(src, dst, id)| *src < 13 && *dst < 13 && *id < 8).collect();
        ix.keys.sort_by_key(|(src, dst, id)| (*id, *src, *dst));
        for (scope, l) in &s.after_merge {
            ix.merged.entry(*scope).or_default().extend(l.iter().copied());
        }
        ix
    }

    fn record(&mut self, ops: Option<&VecDeque<SyncOp>>, n: &mut usize) {
        for op in ops.into_iter().flatten() {
            if let SyncOp::Set(f) | SyncOp::Wait(f) = op {
                for id in &f.ids {
                    self.at.entry((f.src, f.dst, *id)).or_default().insert(*n);
                    *n += 1;
                }
            }
        }
    }

    fn visit(&mut self, s: &Solver, node: NodeId, before: &SyncMap, after: &SyncMap, n: &mut usize) {
        let start_incl = *n;
        *n += 1;
        self.record(before.get(node), n);
        let start = *n;
        *n += 1;
        for &c in &s.tree.nodes[node].body {
            self.visit(s, c, before, after, n);
        }
        let end = *n;
        *n += 1;
        self.record(after.get(node), n);
        let end_incl = *n;
        *n += 1;
        self.spans.insert(node, [start_incl, start, end, end_incl]);
    }

    fn any_in(&self, key: (Pipe, Pipe, u32), lo: usize, hi: usize) -> bool {
        self.at.get(&key).is_some_and(|set| set.range(lo..hi).next().is_some())
    }
}

fn mergeable(s: &Solver, ix: &SetWaitIndex, scope: NodeId, key: (Pipe, Pipe), id: u32, used_once: bool) -> bool {
    // A scope without any set or wait of the key inside cannot take it.
    let k = (key.0, key.1, id);
    let [si, st, en, ei] = ix.spans[&scope];
    if used_once && !ix.any_in(k, si, ei) {
        return false;
    }
    if ix.any_in(k, si, st) || ix.any_in(k, en, ei) {
        return false;
    }
    let t = &s.tree;
    let body = &t.nodes[scope].body;
    match t.nodes[scope].kind {
        Kind::Condition => {
            body.len() == 2 && mergeable(s, ix, body[0], key, id, true) && mergeable(s, ix, body[1], key, id, true)
        }
        Kind::Loop => {
            body.iter().all(|c| mergeable(s, ix, *c, key, id, false))
                && body.iter().any(|c| mergeable(s, ix, *c, key, id, true))
        }
        _ => {
            for &c in body {
                let [si, st, en, ei] = ix.spans[&c];
                if !ix.any_in(k, si, ei) {
                    continue;
                }
                if ix.any_in(k, si, st) || ix.any_in(k, en, ei) {
                    return false;
                }
                if !s.backward_events.has(c, key, id) {
                    return false;
                }
                if ix.merged.get(&c).is_some_and(|l| l.contains(&key)) {
                    return false;
                }
            }
            true
        }
    }
}

fn merge_backward(s: &mut Solver, before: &SyncMap, after: &SyncMap) {
    let ix = SetWaitIndex::build(s, before, after);
    let first = s.tree.nodes[s.tree.root].body[0];
    merge_at(s, &ix, first);
}

fn merge_at(s: &mut Solver, ix: &SetWaitIndex, node: NodeId) {
    let t = &s.tree;
    if !t.is_scope(node) {
        return;
    }
    for c in t.nodes[node].body.clone() {
        merge_at(s, ix, c);
    }
    let t = &s.tree;
    let kind = t.nodes[node].kind;
    if kind == Kind::FunctionBlock {
        return;
    }
    if t.nodes[node].parent.is_some_and(|p| matches!(t.nodes[p].kind, Kind::Condition | Kind::Loop)) {
        return;
    }
    if kind == Kind::Condition && !t.nodes[node].has_else {
        return;
    }
    let mut erased = Vec::new();
    // Only keys with a set or wait somewhere can be merged (`mergeable`).
    for &(src, dst, id) in &ix.keys {
        if s.backward_events.has(node, (src, dst), id) {
            continue;
        }
        if mergeable(s, ix, node, (src, dst), id, true) {
            erased.push((src, dst, id));
            pair_entry(s.backward_events.entry(node), (src, dst)).insert(id, 1);
        }
    }
    if erased.is_empty() {
        return;
    }
    let t = &s.tree;
    let mut targets = Vec::new();
    if matches!(kind, Kind::Condition | Kind::Loop) {
        for &region in &t.nodes[node].body {
            targets.extend(t.nodes[region].body.iter().copied().filter(|c| t.is_scope(*c)));
        }
    } else {
        targets.extend(t.nodes[node].body.iter().copied().filter(|c| t.is_scope(*c)));
    }
    for child in targets {
        for &(src, dst, id) in &erased {
            if let Some(m) = s.backward_events.get_mut(child)
                && let Some(pos) = m.iter().position(|(k, _)| *k == (src, dst))
            {
                m[pos].1.remove(&id);
                if m[pos].1.is_empty() {
                    m.remove(pos);
                }
            }
        }
    }
}

// ----- custom_macro boundary syncs (§6.4) -----

/// The smallest id of a pipe pair that no sync of the solver uses, no pin
/// reserves and no earlier slot of the same macro took. Upstream reserves
/// each slot's id for the whole function, so a function with more macros
/// than ids fails; a macro's handshakes end within it, so ids can be shared
/// between macros.
fn free_id(s: &mut Solver, local: &mut Vec<(Pipe, Pipe, u32)>, (src, dst): (Pipe, Pipe)) -> Option<u32> {
    let used = s.colour_solver(src, dst).used_ids();
    let id = (0..pipes::hw_event_ids(src, dst)).find(|i| !used.contains(i) && !local.contains(&(src, dst, *i)))?;
    local.push((src, dst, id));
    Some(id)
}

pub const NO_SLOT_ID: &str = "GraphSyncSolver could not allocate an event id for a custom_macro sync_event_slot";

fn no_id(op: OpId) -> Located {
    (Some(op), NO_SLOT_ID.into())
}

/// The leaves of the tree (ops and placeholders) in program order.
fn ordered_leaves(s: &Solver, node: NodeId, out: &mut Vec<NodeId>) {
    if s.tree.is_scope(node) {
        for &c in &s.tree.nodes[node].body {
            ordered_leaves(s, c, out);
        }
    } else {
        out.push(node);
    }
}

fn inject_macro_syncs(s: &mut Solver, before: &mut SyncMap, after: &mut SyncMap) -> Result<SlotIds, Located> {
    let mut order = Vec::new();
    ordered_leaves(s, s.tree.root, &mut order);
    let ir = s.ir;
    let macros: Vec<(NodeId, OpId)> = order
        .iter()
        .filter_map(|n| s.tree.nodes[*n].op.filter(|o| ir.is_op(*o, custom::MACRO)).map(|o| (*n, o)))
        .collect();
    let mut out = Vec::new();
    for (node, op) in macros {
        // Sets injected for this macro's wait slots, by pipe pair, and the
        // ids its slots took.
        let mut injected: Vec<((Pipe, Pipe), Vec<u32>)> = Vec::new();
        let mut local: Vec<(Pipe, Pipe, u32)> = Vec::new();
        let mut resolved = Vec::new();
        for (i, slot) in slots::slots_of(ir, op).into_iter().enumerate() {
            // After a first solve found no room, each slot holds an id of
            // its own colouring node (`slots.rs`).
            let take = |s: &mut Solver, local: &mut Vec<(Pipe, Pipe, u32)>| -> Option<u32> {
                if s.reserve_slots {
                    return s.slot_id(op, i, (slot.src, slot.dst));
                }
                free_id(s, local, (slot.src, slot.dst))
            };
            if slot.mode != MacroSync::Internal {
                if !slot.explicit {
                    resolved.push(-1);
                    continue;
                }
                // Upstream takes the id of any set on the pair, else 0, which
                // can pair one set with two waits or share an id with a sync
                // of the solver's own (spec §6.6). Here a wait slot reuses only
                // a set injected for another slot of the same macro, and
                // otherwise the slot gets an id nothing on its pipe pair uses;
                // on upstream's tests the ids come out the same.
                let reuse = (slot.mode == MacroSync::Wait)
                    .then(|| injected.iter().find(|(p, _)| *p == (slot.src, slot.dst)).map(|(_, ids)| ids.clone()))
                    .flatten();
                let ids = match (slot.pinned, reuse) {
                    (Some(p), _) => vec![p],
                    (None, Some(ids)) => ids,
                    (None, None) => vec![take(s, &mut local).ok_or_else(|| no_id(op))?],
                };
                resolved.push(ids[0] as i64);
                let flag = Flag { src: slot.src, dst: slot.dst, ids, all_at_once: false, multi_buffer_loop: None };
                if slot.mode == MacroSync::Wait {
                    if !injected.iter().any(|(p, _)| *p == (flag.src, flag.dst)) {
                        injected.push(((flag.src, flag.dst), flag.ids.clone()));
                        before.at(node).push_front(SyncOp::Set(flag));
                    }
                } else {
                    after.at(node).push_back(SyncOp::Wait(flag));
                }
                continue;
            }
            let id = match slot.pinned {
                Some(p) => p,
                None => take(s, &mut local).ok_or_else(|| no_id(op))?,
            };
            resolved.push(id as i64);
        }
        if !resolved.is_empty() {
            out.push((op, resolved));
        }
    }
    Ok(out)
}
