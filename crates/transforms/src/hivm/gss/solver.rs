//! The v1 solver (spec §4): candidate pairs of memory-touching occurrences,
//! the pipe pairs they conflict on, whether existing syncs already order
//! them (the coverage search), and the sync each remaining conflict gets:
//! a barrier on one pipe, or a set/wait pair with an event-id colouring
//! node. The driver reruns until no pipe pair runs out of event ids.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap, FxHashSet};

use hivm_ir::{Ir, OpId};

use super::colour::{ColourNode, EventIdSolver};
use super::cover::{CoverIndex, SpanIndex};
use super::events::ScopeEvents;
use super::memory::{self, MemInfo};
use super::pipes::{self, Pipe};
use super::prune::Prune;
use super::slots::MacroSlots;
use super::tree::{Kind, MmadPart, NodeId, OccId, Tree};

pub type PairId = usize;

/// Event ids (with their repeat counts) per pipe pair, in first-use order.
pub type PairEvents = Vec<((Pipe, Pipe), BTreeMap<u32, u32>)>;

/// How many event ids a sync rotates through, and for multi-buffered
/// syncs the loop whose iterations pick them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EventIds {
    pub num: u32,
    pub multi_buffer_loop: Option<NodeId>,
}

impl EventIds {
    pub fn one() -> EventIds {
        EventIds { num: 1, multi_buffer_loop: None }
    }
}

/// A chosen synchronisation (upstream's ConflictPair): a barrier when both
/// pipes are the same, else a set_flag after `set_occ` and a wait_flag
/// before `wait_occ`.
#[derive(Clone, Debug)]
pub struct Pair {
    pub op1: Option<NodeId>,
    pub op2: Option<NodeId>,
    pub set_occ: Option<OccId>,
    pub wait_occ: Option<OccId>,
    pub src: Pipe,
    pub dst: Pipe,
    pub start: i64,
    pub end: i64,
    pub backward: bool,
    pub inner_backward: bool,
    pub useless: bool,
    pub persistent: bool,
    pub could_not_run: bool,
    pub dont_check: bool,
    pub ids: EventIds,
    pub colour: Option<ColourNode>,
    pub backward_loop: Option<NodeId>,
    pub pinned: Option<u32>,
    pub par1: Option<OccId>,
    pub par2: Option<OccId>,
    /// A unit-flag handover (`unit_flag.rs`): no sync of its own.
    pub unit_flag: bool,
}

impl Pair {
    pub fn is_barrier(&self) -> bool {
        self.src == self.dst
    }

    pub fn set_node(&self, t: &Tree) -> Option<NodeId> {
        self.set_occ.map(|o| t.occs[o].node)
    }

    pub fn wait_node(&self, t: &Tree) -> Option<NodeId> {
        self.wait_occ.map(|o| t.occs[o].node)
    }
}

/// Where a set and a wait go (upstream's SetWaitPairInfo).
#[derive(Clone, Copy, Debug)]
struct Placement {
    set_occ: OccId,
    wait_occ: OccId,
    forward: bool,
    backward: bool,
}

/// Thresholds with the (number of pairs, common scope) they hold for.
type FarEntry = ((usize, OccId), super::far::Times);

type SyncedKey = (Option<NodeId>, Option<NodeId>, Option<NodeId>, Pipe, Pipe);

pub struct Solver<'a> {
    pub ir: &'a Ir,
    pub tree: Tree,
    pub slots: MacroSlots,
    pub pairs: Vec<Pair>,
    /// Chosen pairs in creation order, then the persistent ones.
    pub chosen: Vec<PairId>,
    pub persistent: Vec<PairId>,
    scope_chosen: FxHashMap<OccId, Vec<PairId>>,
    /// Pairs whose set and wait sit in different scopes, by the set's scope.
    scope_pair_chosen: FxHashMap<OccId, Vec<(OccId, PairId)>>,
    persistent_scope_chosen: FxHashMap<OccId, Vec<PairId>>,
    /// The same three lists ordered by start, for the coverage search:
    /// same-scope pairs, persistent ones, and cross-scope pairs by the
    /// set's scope.
    pub(super) cover_same: CoverIndex,
    pub(super) cover_persistent: CoverIndex,
    pub(super) cover_cross: CoverIndex,
    /// Chosen and persistent set/wait pairs by pipe pair and start, for
    /// `add_interference`.
    spans_chosen: FxHashMap<(Pipe, Pipe), SpanIndex>,
    spans_persistent: FxHashMap<(Pipe, Pipe), SpanIndex>,
    synced: FxHashMap<SyncedKey, PairId>,
    pub colours: BTreeMap<(Pipe, Pipe), EventIdSolver>,
    barrier_all_pairs: BTreeSet<(Pipe, Pipe)>,
    /// Ops before which a barrier-all went for lack of ids, per round.
    barrier_all_before: Vec<(NodeId, usize)>,
    disabled_multi_ids: BTreeSet<(Pipe, Pipe)>,
    /// How many syncs per pipe pair may be widened instead of taking an id
    /// (grown round by round after ids ran out), and how many were this round.
    reuse_budget: BTreeMap<(Pipe, Pipe), u32>,
    reused: BTreeMap<(Pipe, Pipe), u32>,
    /// The widened sync that stands for a pair, by the pair's key.
    replaced: FxHashMap<SyncedKey, PairId>,
    conflicts: FxHashMap<(NodeId, NodeId), Vec<(Pipe, Pipe)>>,
    /// Loop-level backward events: scope node -> pipe pair -> id -> repeat.
    pub backward_events: ScopeEvents,
    pub after_merge: Vec<(NodeId, Vec<(Pipe, Pipe)>)>,
    pub regbase: bool,
    /// While a round visits pairs: what is known settled (see `prune.rs`).
    prune: Option<Prune>,
    /// What the last round collected, when that round's solution is final
    /// (collecting again would give the same).
    pub collected: Option<Result<super::emit::Maps, super::emit::Located>>,
    /// Scratch space for the coverage search's edges.
    edge_buf: std::cell::RefCell<Vec<(Pipe, Pipe, i64, i64)>>,
    /// Thresholds (`far.rs`) by (o2, src, dst), with the number of pairs and
    /// the common scope they were computed for.
    far_cache: std::cell::RefCell<FxHashMap<(OccId, Pipe, Pipe), FarEntry>>,
    /// `enable-unit-flag`: matmul/fixpipe handovers (`unit_flag.rs`), per
    /// occurrence and, from pairs that are not copies, per op.
    pub unit_flag: bool,
    pub(super) uf_occ: Vec<super::unit_flag::OccState>,
    pub(super) uf_ops: FxHashMap<NodeId, super::unit_flag::Info>,
    /// Op pairs a handover's in-between check computed first (kept across
    /// rounds, see `uf_conflict`).
    pub(super) uf_checked: FxHashSet<(NodeId, NodeId)>,
    /// Beyond upstream: macro slots hold colouring nodes over their macro
    /// (`slots.rs`), after a first solve left a slot without an id.
    pub reserve_slots: bool,
    pub(super) slot_colours: Vec<((OpId, usize), ColourNode)>,
}

const MAX_ROUNDS: usize = 99;
/// Widened syncs per pipe pair, at most (upstream's maxReuseNum).
const MAX_REUSE: u32 = 20;

impl<'a> Solver<'a> {
    pub fn new(ir: &'a Ir, tree: Tree, slots: MacroSlots, regbase: bool) -> Solver<'a> {
        Solver {
            ir,
            tree,
            slots,
            pairs: Vec::new(),
            chosen: Vec::new(),
            persistent: Vec::new(),
            scope_chosen: FxHashMap::default(),
            scope_pair_chosen: FxHashMap::default(),
            persistent_scope_chosen: FxHashMap::default(),
            cover_same: CoverIndex::default(),
            cover_persistent: CoverIndex::default(),
            cover_cross: CoverIndex::default(),
            spans_chosen: FxHashMap::default(),
            spans_persistent: FxHashMap::default(),
            synced: FxHashMap::default(),
            colours: BTreeMap::new(),
            barrier_all_pairs: BTreeSet::new(),
            barrier_all_before: Vec::new(),
            disabled_multi_ids: BTreeSet::new(),
            reuse_budget: BTreeMap::new(),
            reused: BTreeMap::new(),
            replaced: FxHashMap::default(),
            conflicts: FxHashMap::default(),
            backward_events: ScopeEvents::default(),
            after_merge: Vec::new(),
            regbase,
            prune: None,
            collected: None,
            edge_buf: std::cell::RefCell::new(Vec::new()),
            far_cache: std::cell::RefCell::new(FxHashMap::default()),
            unit_flag: false,
            uf_occ: Vec::new(),
            uf_ops: FxHashMap::default(),
            uf_checked: FxHashSet::default(),
            reserve_slots: false,
            slot_colours: Vec::new(),
        }
    }

    fn reset(&mut self, all: bool) {
        if all {
            self.disabled_multi_ids.clear();
            self.after_merge.clear();
            self.reuse_budget.clear();
        }
        self.reused.clear();
        self.replaced.clear();
        self.synced.clear();
        self.chosen.clear();
        self.scope_chosen.clear();
        self.scope_pair_chosen.clear();
        self.cover_same.clear();
        self.cover_cross.clear();
        self.far_cache.borrow_mut().clear();
        self.spans_chosen.clear();
        self.backward_events.clear();
        self.barrier_all_pairs.clear();
        self.barrier_all_before.clear();
        self.colours.clear();
        self.uf_occ = vec![Default::default(); self.tree.occs.len()];
        self.uf_ops.clear();
        let reserved = self.slots.reserved.clone();
        for ((s, d), ids) in reserved {
            for id in ids {
                self.colour_solver(s, d).reserve(id);
            }
        }
        if self.reserve_slots {
            self.reserve_macro_slots();
        }
    }

    pub fn colour_solver(&mut self, s: Pipe, d: Pipe) -> &mut EventIdSolver {
        self.colours.entry((s, d)).or_insert_with(|| EventIdSolver::new(pipes::hw_event_ids(s, d)))
    }

    /// Runs the solver to a final set of chosen pairs (spec §4.8).
    pub fn solve(&mut self) -> Result<(), String> {
        for (opts1, opts2) in [(true, true), (false, true), (false, false)] {
            if self.run(opts1, opts2) {
                return Ok(());
            }
        }
        Err("the sync solver did not converge".into())
    }

    fn run(&mut self, opts1: bool, opts2: bool) -> bool {
        self.reset(true);
        self.collected = None;
        let mut rounds = 0;
        // Whether the last round's solution is the final one as it stands:
        // a final round would see the same inputs and choose the same.
        let mut settled = false;
        while rounds < MAX_ROUNDS {
            rounds += 1;
            self.reset(false);
            self.insert_merged_backward_pairs();
            self.process_orders();
            settled = false;
            if opts1 {
                // The loop-level events this round produced become ordering
                // facts for the next one. Collecting assigns ids, which
                // must not leak into the solution.
                let merged = self.after_merge.clone();
                let colours = self.colours.clone();
                self.collected = Some(super::emit::collect(self));
                self.colours = colours;
                if self.consider_outer_backward_pairs() {
                    continue;
                }
                // Scopes marked merged without pipe pairs add no pairs.
                let pairs = |m: &[(NodeId, Vec<(Pipe, Pipe)>)]| {
                    m.iter().filter(|(_, l)| !l.is_empty()).cloned().collect::<Vec<_>>()
                };
                // Handovers can come out differently in a repeated round
                // (`unit_flag.rs`, `uf_conflict`), so with them the final
                // round always runs, as upstream's does.
                settled = pairs(&self.after_merge) == pairs(&merged) && !self.unit_flag;
                if !self.barrier_all_pairs.is_empty() {
                    self.after_merge.clear();
                }
            }
            if opts2 && !self.barrier_all_pairs.is_empty() {
                // First widen more syncs on the pipe pairs that ran out.
                let mut grown = false;
                for p in self.barrier_all_pairs.clone() {
                    let budget = self.reuse_budget.entry(p).or_insert(0);
                    if *budget < MAX_REUSE && *budget <= self.reused.get(&p).copied().unwrap_or(0) {
                        *budget += 1;
                        grown = true;
                    }
                }
                if grown {
                    continue;
                }
                let mut added = false;
                for p in self.barrier_all_pairs.clone() {
                    added |= self.disabled_multi_ids.insert(p);
                }
                if added {
                    continue;
                }
            }
            if !self.barrier_all_pairs.is_empty() {
                self.persist_a_barrier_all();
                self.reset(true);
                continue;
            }
            break;
        }
        if !(settled && self.barrier_all_pairs.is_empty()) {
            self.collected = None;
            self.reset(false);
            self.insert_merged_backward_pairs();
            self.process_orders();
        }
        rounds < MAX_ROUNDS
    }

    // ----- candidate pairs (v1) -----

    /// Visits the candidate pairs in upstream's order (v1), handling each
    /// as it comes.
    fn process_orders(&mut self) {
        // Widening moves a chosen sync, which pruning's argument excludes.
        // So does a handover, which orders only its own waiter.
        self.prune = if self.reuse_budget.values().all(|b| *b == 0) && !self.unit_flag {
            Prune::new(&self.tree, self.regbase)
        } else {
            None
        };
        self.build_orders(0, false);
        self.prune = None;
    }

    fn child(&self, o: OccId, k: usize) -> OccId {
        self.tree.occs[o].children[k]
    }

    fn done(&self, o: OccId) -> bool {
        self.prune.as_ref().is_some_and(|p| p.is_done(o))
    }

    fn build_orders(&mut self, occ: OccId, useless: bool) {
        let n = self.tree.occs[occ].children.len();
        match self.tree.kind_of_occ(occ) {
            Kind::Loop => {
                let half = n / 2;
                for k in 0..n {
                    self.build_orders(self.child(occ, k), useless || k >= half);
                }
                self.gen_list(occ, 0..half, useless);
                self.gen_list(occ, half..n, true);
                for k2 in half..n {
                    let s2 = self.child(occ, k2);
                    for k1 in (0..half).rev() {
                        if self.done(s2) {
                            break;
                        }
                        let s1 = self.child(occ, k1);
                        self.gen_lists(s1, s2, useless);
                    }
                }
                if let Some(p) = self.prune.as_mut() {
                    p.close(&self.tree, occ);
                }
            }
            k if k != Kind::Rw && k != Kind::PlaceHolder => {
                for k in 0..n {
                    self.build_orders(self.child(occ, k), useless);
                }
                self.gen_list(occ, 0..n, useless);
            }
            _ => return,
        }
        self.record_exits(occ);
    }

    /// With the pairs within `scope` chosen, the exits of its ops
    /// (`far.rs`).
    fn record_exits(&mut self, scope: OccId) {
        if self.prune.is_none() {
            return;
        }
        let mut found = Vec::new();
        for &c in &self.tree.occs[scope].children {
            if self.tree.kind_of_occ(c) != Kind::Rw {
                continue;
            }
            let Some(rw) = self.tree.nodes[self.tree.occs[c].node].rw.as_ref() else { continue };
            found.push((c, rw.pipe_read, self.exits(c, rw.pipe_read)));
            if rw.pipe_write != rw.pipe_read {
                found.push((c, rw.pipe_write, self.exits(c, rw.pipe_write)));
            }
        }
        let tree = &self.tree;
        let prune = self.prune.as_mut().expect("checked above");
        for (c, p, x) in found {
            prune.lower_exits(tree, c, p, &x);
        }
    }

    /// Whether every op still to be paired with `o2` (those from the start
    /// of its region to `o1`) is ordered before it on (src, dst) (`far.rs`).
    fn far_ordered(&self, o1: OccId, o2: OccId, src: Pipe, dst: Pipe) -> bool {
        let Some(p) = self.prune.as_ref() else { return false };
        let t = &self.tree;
        let common = p.remaining_lca(t, o1, o2);
        // Thresholds only change when a pair is chosen (or the set of
        // cross-scope pairs that count does).
        let key = (o2, src, dst);
        let stamp = (self.pairs.len(), common);
        let cached = self.far_cache.borrow().get(&key).filter(|(s, _)| *s == stamp).map(|(_, thr)| *thr);
        let thr = cached.unwrap_or_else(|| {
            let thr = self.thresholds(o2, common, src, dst);
            self.far_cache.borrow_mut().insert(key, (stamp, thr));
            thr
        });
        p.all_meet(src, p.region_start(t, o2), t.occs[o1].start, &thr)
    }

    /// Pairs among the children `range` of `parent`.
    fn gen_list(&mut self, parent: OccId, range: std::ops::Range<usize>, useless: bool) {
        for i in range.clone() {
            let o2 = self.child(parent, i);
            for j in (range.start..i).rev() {
                if self.done(o2) {
                    break;
                }
                self.pair_up(self.child(parent, j), o2, useless);
            }
        }
    }

    /// Pairs of a child of `a` with a child of `b`.
    fn gen_lists(&mut self, a: OccId, b: OccId, useless: bool) {
        let (na, nb) = (self.tree.occs[a].children.len(), self.tree.occs[b].children.len());
        for k2 in 0..nb {
            let o2 = self.child(b, k2);
            for k1 in (0..na).rev() {
                if self.done(o2) {
                    break;
                }
                self.pair_up(self.child(a, k1), o2, useless);
            }
        }
    }

    /// `o1` against every occurrence of `o2`'s subtree.
    fn gen_one(&mut self, o1: OccId, b: OccId, useless: bool) {
        for k2 in 0..self.tree.occs[b].children.len() {
            let o2 = self.child(b, k2);
            if !self.done(o2) {
                self.pair_up(o1, o2, useless);
            }
        }
    }

    /// Every occurrence of `a`'s subtree (closest first) against `o2`.
    fn gen_to(&mut self, a: OccId, o2: OccId, useless: bool) {
        for k1 in (0..self.tree.occs[a].children.len()).rev() {
            if self.done(o2) {
                break;
            }
            self.pair_up(self.child(a, k1), o2, useless);
        }
    }

    fn pair_up(&mut self, o1: OccId, o2: OccId, useless: bool) {
        if self.skip_later_iterations(o1, o2) {
            return;
        }
        let t = &self.tree;
        let (k1, k2) = (t.kind_of_occ(o1), t.kind_of_occ(o2));
        let scope = |k: Kind| !matches!(k, Kind::Rw | Kind::PlaceHolder);
        if scope(k1) && scope(k2) {
            self.gen_lists(o1, o2, useless);
        }
        if k1 == Kind::Rw && scope(k2) {
            self.gen_one(o1, o2, useless);
        }
        if scope(k1) && k2 == Kind::Rw {
            self.gen_to(o1, o2, useless);
        }
        if k1 == Kind::Rw && k2 == Kind::Rw {
            self.process_order(o1, o2, useless);
        }
    }

    fn skip_later_iterations(&self, o1: OccId, o2: OccId) -> bool {
        let t = &self.tree;
        for p in [t.occs[o1].parent, t.occs[o2].parent].into_iter().flatten() {
            if let Some(split) = t.occs[p].split
                && t.occs[o1].index < split
                && split <= t.occs[o2].index
            {
                return true;
            }
        }
        false
    }

    fn process_order(&mut self, o1: OccId, o2: OccId, useless: bool) {
        self.process_order_inner(o1, o2, useless);
        // Pipes no conflict has settled yet may be ordered all the same.
        if self.prune.as_mut().is_some_and(|p| p.visit(o2)) {
            for (src, dst) in self.prune.as_ref().unwrap().open(&self.tree, o2) {
                let far = self.tree.occs[o1].parent != self.tree.occs[o2].parent;
                if !self.needs_sync_in(o1, o2, src, dst, EventIds::one(), true)
                    || (far && self.far_ordered(o1, o2, src, dst))
                {
                    let tree = &self.tree;
                    self.prune.as_mut().unwrap().settle(tree, o2, src, dst);
                }
            }
        }
    }

    fn process_order_inner(&mut self, o1: OccId, o2: OccId, useless: bool) {
        if self.impossible_pair(o1, o2)
            || self.already_synced(o1, o2)
            || self.skip_parallel_loop(o1, o2)
            || self.uf_chain_orders(o1, o2)
        {
            return;
        }
        let (n1, n2) = (self.tree.occs[o1].node, self.tree.occs[o2].node);
        for (src, dst) in self.memory_conflicts(n1, n2) {
            if self.prune.as_ref().is_some_and(|p| p.is_settled(&self.tree, o2, src, dst)) {
                continue;
            }
            self.handle_conflict(o1, o2, src, dst, useless);
            if self.prune.is_some()
                && !self.needs_sync_in(o1, o2, src, dst, EventIds::one(), true)
                && let Some(p) = self.prune.as_mut()
            {
                p.settle(&self.tree, o2, src, dst);
            }
        }
    }

    // ----- skip rules (§4.2) -----

    pub fn is_backward(&self, o1: OccId, o2: OccId) -> bool {
        let t = &self.tree;
        if t.pre_order_of_occ(o1) >= t.pre_order_of_occ(o2) {
            return true;
        }
        let (p1, _) = t.lca_pair(o1, o2);
        let (n1, _) = t.node_lca_pair(t.occs[o1].node, t.occs[o2].node);
        let occ_parent = t.occs[p1].parent.map(|p| t.occs[p].node);
        occ_parent != t.nodes[n1].parent
    }

    fn impossible_pair(&self, o1: OccId, o2: OccId) -> bool {
        let t = &self.tree;
        if t.occs[o1].node == t.occs[o2].node {
            return false;
        }
        let (p1, p2) = t.lca_pair(o1, o2);
        let (pp1, pp2) = (t.occs[p1].parent, t.occs[p2].parent);
        pp1.is_some() && pp1 == pp2 && t.kind_of_occ(pp1.unwrap()) == Kind::Condition
    }

    fn already_synced(&self, o1: OccId, o2: OccId) -> bool {
        let t = &self.tree;
        let (p1, _) = t.lca_pair(o1, o2);
        let (n1, _) = t.node_lca_pair(t.occs[o1].node, t.occs[o2].node);
        let parent_loop = t.node_parent_loop(t.occs[p1].node);
        let mut cur = t.node_parent_loop(n1);
        let Some(parent_loop) = parent_loop else { return false };
        if Some(parent_loop) == cur {
            return false;
        }
        while let Some(c) = cur {
            if c == parent_loop {
                break;
            }
            if !t.nodes[c].parallel {
                return true;
            }
            cur = t.node_parent_loop(c);
        }
        false
    }

    fn skip_parallel_loop(&self, o1: OccId, o2: OccId) -> bool {
        if !self.is_backward(o1, o2) {
            return false;
        }
        let t = &self.tree;
        let (p1, _) = t.lca_pair(o1, o2);
        t.parent_loop(p1).is_some_and(|l| t.nodes[t.occs[l].node].parallel)
    }

    // ----- memory conflicts (§4.3) -----

    /// Whether the pair's conflicts were computed already, and if so
    /// whether there are any.
    pub(super) fn conflicts_known(&self, n1: NodeId, n2: NodeId) -> Option<bool> {
        self.conflicts.get(&(n1, n2)).map(|c| !c.is_empty())
    }

    pub(super) fn memory_conflicts(&mut self, n1: NodeId, n2: NodeId) -> Vec<(Pipe, Pipe)> {
        if let Some(c) = self.conflicts.get(&(n1, n2)) {
            return c.clone();
        }
        let t = &self.tree;
        let (a, b) = (t.nodes[n1].rw.as_ref().unwrap(), t.nodes[n2].rw.as_ref().unwrap());
        let mut out: Vec<(Pipe, Pipe)> = Vec::new();
        let mut add = |l1: &[MemInfo], l2: &[MemInfo], p: (Pipe, Pipe)| {
            if l1.iter().any(|m1| l2.iter().any(|m2| memory::conflicts(m1, m2))) && !out.contains(&p) {
                out.push(p);
            }
        };
        add(&a.reads, &b.writes, (a.pipe_read, b.pipe_write));
        add(&a.writes, &b.reads, (a.pipe_write, b.pipe_read));
        add(&a.writes, &b.writes, (a.pipe_write, b.pipe_write));
        self.conflicts.insert((n1, n2), out.clone());
        out
    }

    // ----- multi-buffer ids (§4.4) -----

    fn event_ids_for(&self, o1: OccId, o2: OccId) -> EventIds {
        self.multi_buffer_ids(o1, o2).unwrap_or_else(EventIds::one)
    }

    fn multi_buffer_ids(&self, o1: OccId, o2: OccId) -> Option<EventIds> {
        if !self.is_backward(o1, o2) {
            return None;
        }
        let t = &self.tree;
        let (n1, n2) = (t.occs[o1].node, t.occs[o2].node);
        let ir = self.ir;
        // (A matmul's L0 loads have no op of their own: nothing to check.)
        for n in [n1, n2] {
            let Some(op) = t.nodes[n].op else { continue };
            let mut p = ir.parent_op(op);
            while let Some(o) = p {
                if matches!(ir.op_name(o), "scf.parallel" | "scf.forall") {
                    return None;
                }
                p = ir.parent_op(o);
            }
        }
        let (a, b) = (t.nodes[n1].rw.as_ref()?, t.nodes[n2].rw.as_ref()?);
        let sets = [(&a.reads, &b.writes), (&a.writes, &b.reads), (&a.writes, &b.writes)];
        // The loop that rotates the conflicting buffers: one for all of them.
        let mut scope: Option<NodeId> = None;
        for (l1, l2) in sets {
            for m1 in l1.iter() {
                for m2 in l2.iter() {
                    if !memory::conflicts(m1, m2) {
                        continue;
                    }
                    let (Some(loop1), Some(loop2)) = (m1.parent_loop(), m2.parent_loop()) else { return None };
                    let p1 = t.node_with_op(n1, loop1)?;
                    let p2 = t.node_with_op(n2, loop2)?;
                    if p1 != p2 || scope.is_some_and(|s| s != p1) {
                        return None;
                    }
                    scope = Some(p1);
                }
            }
        }
        let scope = scope?;
        if !t.node_is_proper_ancestor(scope, n1) || !t.node_is_proper_ancestor(scope, n2) {
            return None;
        }
        let num = self.multi_buffer_count(a, b)?;
        if num > 2 {
            let mut c = t.node_parent_of_kind(n1, Kind::Condition);
            while let Some(cond) = c {
                if t.node_is_proper_ancestor(cond, n2) && !t.node_is_proper_ancestor(cond, scope) {
                    return None;
                }
                c = t.node_parent_of_kind(cond, Kind::Condition);
            }
        }
        let (set, wait) = self.set_wait_lca_pair(o1, o2);
        if t.node_parent_loop(t.occs[set].node) != Some(scope) || t.node_parent_loop(t.occs[wait].node) != Some(scope) {
            return None;
        }
        Some(EventIds { num, multi_buffer_loop: Some(scope) })
    }

    fn multi_buffer_count(&self, a: &super::tree::Rw, b: &super::tree::Rw) -> Option<u32> {
        let mut lcm = 1u64;
        let mut min_write = u64::MAX;
        let sets = [(&a.reads, &b.writes, 2), (&a.writes, &b.reads, 1), (&a.writes, &b.writes, 3)];
        for (l1, l2, which) in sets {
            for m1 in l1.iter() {
                for m2 in l2.iter() {
                    if memory::conflicts(m1, m2) {
                        lcm = lcm_of(lcm, lcm_of(m1.slots() as u64, m2.slots() as u64));
                        if which & 1 != 0 {
                            min_write = min_write.min(m1.slots() as u64);
                        }
                        if which & 2 != 0 {
                            min_write = min_write.min(m2.slots() as u64);
                        }
                    }
                }
            }
        }
        if min_write == u64::MAX {
            return None;
        }
        let mut n = min_write;
        while n >= 1 {
            let cur = lcm_of(lcm, n);
            let ok = sets.iter().all(|(l1, l2, _)| {
                !l1.iter()
                    .any(|m1| l2.iter().any(|m2| memory::conflicts_multi_buffer(m1, m2, cur as usize, n as usize)))
            });
            if ok {
                break;
            }
            n -= 1;
        }
        (n > 1).then_some(n as u32)
    }

    // ----- placement (§4.5) -----

    fn set_wait_lca_pair(&self, o1: OccId, o2: OccId) -> (OccId, OccId) {
        let t = &self.tree;
        let (gp1, _) = t.lca_pair(o1, o2);
        let (n1, n2) = t.node_lca_pair(t.occs[o1].node, t.occs[o2].node);
        let par = t.nodes[n1].parent.expect("below the function");
        debug_assert_eq!(Some(par), t.nodes[n2].parent);
        let par1 = t.parent_with_node(o1, par).expect("the op's ancestor");
        let par2 = t.parent_with_node(o2, par).expect("the op's ancestor");
        let mut set = t.nth_parent(o1, t.occs[o1].depth - t.occs[par1].depth - 1);
        let mut wait = t.nth_parent(o2, t.occs[o2].depth - t.occs[par2].depth - 1);
        let mut lp = t.parent_loop(set);
        while let Some(l) = lp {
            if !t.is_proper_ancestor(gp1, l) {
                break;
            }
            set = l;
            wait = t.parent_loop(wait).expect("a loop on both sides");
            lp = t.parent_loop(set);
        }
        (set, wait)
    }

    fn before_ph(&self, o: OccId) -> Option<OccId> {
        let t = &self.tree;
        let i = t.occs[o].index.checked_sub(1)?;
        let ph = t.occs.get(i)?;
        (t.nodes[ph.node].kind == Kind::PlaceHolder && t.nodes[ph.node].ph.before == Some(t.occs[o].node)).then_some(i)
    }

    fn after_ph(&self, o: OccId) -> Option<OccId> {
        let t = &self.tree;
        let i = t.occs[o].end_index;
        let ph = t.occs.get(i)?;
        (t.nodes[ph.node].kind == Kind::PlaceHolder && t.nodes[ph.node].ph.after == Some(t.occs[o].node)).then_some(i)
    }

    fn scope_begin_ph(&self, o: OccId) -> OccId {
        self.tree.occs[o].index + 1
    }

    fn scope_end_ph(&self, o: OccId) -> OccId {
        self.tree.occs[o].end_index - 1
    }

    fn placement(&self, mut o1: OccId, mut o2: OccId) -> Placement {
        let t = &self.tree;
        // Different blocks of the function: the set goes at the start of
        // the consumer's block.
        let (b1, b2) = (t.parent_of_kind(o1, Kind::FunctionBlock), t.parent_of_kind(o2, Kind::FunctionBlock));
        if b1 != b2
            && let Some(b2) = b2
        {
            o1 = self.scope_begin_ph(b2);
        }
        if let Some((a, b)) = self.unlikely_placement(o1, o2) {
            (o1, o2) = (a, b);
        }
        let (mut set, mut wait) = self.set_wait_lca_pair(o1, o2);
        // A pair across the regions of a while loop waits at the end of the
        // region that sets.
        if t.occs[set].node != t.occs[wait].node
            && let Some(p) = t.occs[set].parent
            && t.kind_of_occ(p) == Kind::Loop
            && t.nodes[t.occs[p].node].body.len() > 1
            && t.kind_of_occ(wait) != Kind::PlaceHolder
        {
            let ph = self.scope_end_ph(set);
            (set, wait) = self.set_wait_lca_pair(o1, ph);
        }
        if self.is_backward(set, wait) {
            if let Some(p) = t.occs[set].parent.filter(|p| t.kind_of_occ(*p) == Kind::Condition) {
                set = p;
            }
            if let Some(p) = t.occs[wait].parent.filter(|p| t.kind_of_occ(*p) == Kind::Condition) {
                wait = p;
            }
        }
        if t.is_scope(t.occs[set].node)
            && let Some(ph) = self.after_ph(set)
        {
            set = ph;
        }
        if t.is_scope(t.occs[wait].node)
            && let Some(ph) = self.before_ph(wait)
        {
            wait = ph;
        }
        Placement {
            set_occ: set,
            wait_occ: wait,
            forward: t.pre_order_of_occ(set) < t.pre_order_of_occ(wait),
            backward: self.is_backward(set, wait),
        }
    }

    fn unlikely_parent(&self, o: OccId) -> Option<OccId> {
        let t = &self.tree;
        let mut c = t.parent_of_kind(o, Kind::Condition);
        while let Some(cond) = c {
            let then = t.occs[cond].children.first().copied();
            if t.nodes[t.occs[cond].node].unlikely && then.is_some_and(|th| t.is_proper_ancestor(th, o)) {
                return Some(cond);
            }
            c = t.parent_of_kind(cond, Kind::Condition);
        }
        None
    }

    fn unlikely_placement(&self, o1: OccId, o2: OccId) -> Option<(OccId, OccId)> {
        let t = &self.tree;
        if let Some(c1) = self.unlikely_parent(o1)
            && !t.is_proper_ancestor(c1, o2)
            && t.parent_loop(c1).is_none_or(|l| t.is_proper_ancestor(l, o2))
        {
            let branch = t.nth_parent(o1, t.occs[o1].depth - t.occs[c1].depth - 1);
            return Some((o1, self.scope_end_ph(branch)));
        }
        if let Some(c2) = self.unlikely_parent(o2)
            && !t.is_proper_ancestor(c2, o1)
            && t.parent_loop(c2).is_none_or(|l| t.is_proper_ancestor(l, o1))
        {
            let branch = t.nth_parent(o2, t.occs[o2].depth - t.occs[c2].depth - 1);
            return Some((self.scope_begin_ph(branch), o2));
        }
        None
    }

    fn barrier_wait_occ(&self, o1: OccId, o2: OccId) -> OccId {
        let t = &self.tree;
        let wait = self.placement(o1, o2).wait_occ;
        if !t.is_proper_ancestor(wait, o2) {
            return wait;
        }
        let mut parents = t.all_parents(o2);
        while parents.last().is_some_and(|p| t.is_proper_ancestor(*p, wait)) {
            parents.pop();
        }
        while parents.len() >= 2 && parents.last().is_some_and(|p| t.kind_of_occ(*p) == Kind::Condition) {
            parents.pop();
            parents.pop();
        }
        parents.last().copied().unwrap_or(o2)
    }

    // ----- coverage (§4.6) -----

    /// Whether the order from `o1` to `o2` on (src, dst) still needs a sync.
    fn needs_sync(&self, o1: OccId, o2: OccId, src: Pipe, dst: Pipe, ids: EventIds) -> bool {
        self.needs_sync_in(o1, o2, src, dst, ids, false)
    }

    /// `needs_sync`, or with `only_o2` counting only the syncs every
    /// occurrence still to be paired with `o2` would see too (`prune.rs`).
    fn needs_sync_in(&self, o1: OccId, o2: OccId, src: Pipe, dst: Pipe, ids: EventIds, only_o2: bool) -> bool {
        let t = &self.tree;
        let (start, end) = (t.occs[o1].end, t.occs[o2].start);
        let mut edges = self.edge_buf.borrow_mut();
        edges.clear();
        let mut handovers = Vec::new();
        // Some(ordered) once the answer is known without a search.
        let mut visit = |p: PairId| -> bool {
            let c = &self.pairs[p];
            if c.could_not_run || c.end < start || c.start > end {
                return false;
            }
            if c.unit_flag {
                handovers.push((c.src, c.dst, c.start, c.end, true, c.wait_occ == Some(o2)));
                return false;
            }
            if c.inner_backward && (ids.num < c.ids.num || (only_o2 && c.ids.num > 1)) {
                return false;
            }
            if c.is_barrier() && (c.src == pipes::ALL || (src == dst && c.src == src)) {
                return true;
            }
            // A single sync on exactly these pipes inside the window.
            if c.src == src && c.dst == dst && src != dst && c.start >= start && c.end <= end {
                return true;
            }
            edges.push((c.src, c.dst, c.start, c.end));
            false
        };
        // Scopes holding either occurrence: those above o1 (with `only_o2`,
        // above every occurrence still to be paired with o2, see
        // `prune.rs`), then those above o2 below where the two chains join.
        let base = match (only_o2, &self.prune) {
            (true, Some(p)) => Some(p.remaining_lca(t, o1, o2)),
            _ => t.occs[o1].parent,
        };
        let join = base.map(|b| t.lca(b, o2));
        let mut cur = base;
        while let Some(s) = cur {
            for index in [&self.cover_same, &self.cover_persistent] {
                for p in index.starting_in(s, start, end) {
                    if visit(p) {
                        return false;
                    }
                }
            }
            for p in self.cover_cross.starting_in(s, start, end) {
                if t.is_proper_ancestor(self.pairs[p].par2.expect("a committed pair has scopes"), o2) && visit(p) {
                    return false;
                }
            }
            cur = t.occs[s].parent;
        }
        let mut cur = t.occs[o2].parent;
        while let Some(s) = cur.filter(|s| Some(*s) != join) {
            for index in [&self.cover_same, &self.cover_persistent] {
                for p in index.starting_in(s, start, end) {
                    if visit(p) {
                        return false;
                    }
                }
            }
            cur = t.occs[s].parent;
        }
        let reached = if handovers.is_empty() {
            reach(&edges, src, dst, start, end)
        } else {
            handovers.extend(edges.iter().map(|&(s, d, a, b)| (s, d, a, b, false, false)));
            super::unit_flag::reach_with_handovers(&handovers, src, dst, start, end)
        };
        match reached {
            Some(d) => d > end,
            None => true,
        }
    }

    // ----- handling one conflict (§4.7) -----

    fn handle_conflict(&mut self, o1: OccId, o2: OccId, src: Pipe, dst: Pipe, useless: bool) {
        let ids = self.event_ids_for(o1, o2);
        let place = self.placement(o1, o2);
        if !self.needs_sync(o1, o2, src, dst, ids) {
            return;
        }
        if src == dst {
            self.handle_barrier(o1, o2, src, useless);
        } else if let Some(info) = self.uf_pattern(o1, o2) {
            self.handle_unit_flag(o1, o2, src, dst, info, useless);
        } else {
            self.handle_set_wait(o1, o2, src, dst, ids, place, useless);
        }
    }

    fn handle_barrier(&mut self, o1: OccId, o2: OccId, pipe: Pipe, mut useless: bool) {
        if pipe == pipes::S || (self.regbase && pipe == pipes::V) {
            return;
        }
        if pipe == pipes::M {
            useless = true;
        }
        let wait = self.barrier_wait_occ(o1, o2);
        let t = &self.tree;
        let idx = t.occs[wait].start;
        let p = self.new_pair(Pair {
            op1: Some(t.occs[o1].node),
            op2: Some(t.occs[o2].node),
            set_occ: Some(wait),
            wait_occ: Some(wait),
            src: pipe,
            dst: pipe,
            start: idx,
            end: idx,
            useless,
            ..blank_pair()
        });
        self.commit(p, None);
    }

    #[allow(clippy::too_many_arguments)]
    fn handle_set_wait(
        &mut self,
        o1: OccId,
        o2: OccId,
        src: Pipe,
        dst: Pipe,
        ids: EventIds,
        place: Placement,
        useless: bool,
    ) {
        let t = &self.tree;
        let (mut set, mut wait) = (place.set_occ, place.wait_occ);
        let (n1, n2) = (t.occs[o1].node, t.occs[o2].node);
        let mut pair = Pair {
            op1: Some(n1),
            op2: Some(n2),
            set_occ: Some(set),
            wait_occ: Some(wait),
            src,
            dst,
            start: t.occs[set].end,
            end: t.occs[wait].start,
            backward: place.backward,
            inner_backward: !place.forward && place.backward,
            useless,
            ids,
            par1: t.occs[set].parent,
            par2: t.occs[wait].parent,
            ..blank_pair()
        };
        pair.pinned = self.slots.pinned_for(self.ir, [t.nodes[n1].op, t.nodes[n2].op], src, dst);
        if pair.pinned.is_some() {
            pair.ids = EventIds::one();
        }
        let mut loop_occ = None;
        let mut before = None;
        let mut after = None;
        if pair.backward {
            let (p1, _) = t.lca_pair(o1, o2);
            let l = t.parent_loop(p1).expect("a backward pair sits in a loop");
            loop_occ = Some(l);
            pair.backward_loop = Some(t.occs[l].node);
            before = self.before_ph(l);
            after = self.after_ph(l);
        }
        // A DMA's handshake with a local matmul placed right at the matmul
        // moves onto the L0 load it concerns, which the matmul's library
        // code waits for or releases itself (`sync_related_args`).
        let t = &self.tree;
        let onto_load = |o: OccId, at: OccId| {
            let part = t.nodes[t.occs[o].node].mmad;
            part.is_some_and(MmadPart::is_l0_load)
                && t.occs[o].depth >= 3
                && t.nth_parent(o, 3) == at
                && t.nodes[t.occs[t.nth_parent(o, 2)].node].mmad == Some(MmadPart::Body)
        };
        if src == pipes::MTE1 && dst == pipes::MTE2 && onto_load(o1, set) {
            set = o1;
            pair.set_occ = Some(o1);
            pair.start = t.occs[o1].end;
        } else if src == pipes::MTE2 && dst == pipes::MTE1 && !pair.inner_backward && onto_load(o2, wait) {
            wait = o2;
            pair.wait_occ = Some(o2);
            pair.end = t.occs[o2].start;
        }
        if !pair.inner_backward || self.disabled_multi_ids.contains(&(src, dst)) {
            pair.ids = EventIds::one();
        }
        if self.reuse(&pair) {
            return;
        }
        let t = &self.tree;
        let reversed = pair.inner_backward && t.parent_loop(o1) == loop_occ && t.parent_loop(o2) == loop_occ;
        let key = (pair.backward_loop, pair.op1, pair.op2, src, dst);
        let old = self.synced.get(&key).map(|p| self.pairs[*p].colour.expect("a chosen set/wait has a colour"));
        let pinned = pair.pinned;
        let num = pair.ids.num;
        let solver = self.colour_solver(src, dst);
        let cp = solver.checkpoint();
        let node = match old {
            Some(n) => n,
            None => {
                let n = solver.add_node(num, reversed);
                if let Some(id) = pinned {
                    solver.pin(n, id);
                }
                n
            }
        };
        pair.colour = Some(node);
        let mut extras: Vec<(Pair, OccId)> = Vec::new();
        if !self.add_interference(&pair, node) {
            return self.fall_back_to_barrier_all(o1, o2, src, dst, useless, cp);
        }
        let mut extra = |me: &mut Self, s: OccId, w: OccId, parent: OccId| -> bool {
            let t = &me.tree;
            let e = Pair {
                set_occ: Some(s),
                wait_occ: Some(w),
                start: t.occs[s].end,
                end: t.occs[w].start,
                useless: true,
                could_not_run: true,
                par1: Some(parent),
                par2: Some(parent),
                ..pair.clone()
            };
            if !me.add_interference(&e, node) {
                return false;
            }
            extras.push((e, parent));
            true
        };
        if pair.backward && pair.ids.num > 1 {
            let (b, a, l) = (before.unwrap(), after.unwrap(), loop_occ.unwrap());
            let parent = self.tree.occs[l].parent.unwrap();
            if !extra(self, b, a, parent) {
                return self.fall_back_to_barrier_all(o1, o2, src, dst, useless, cp);
            }
        }
        if pair.inner_backward {
            let l = loop_occ.unwrap();
            let first = self.first_iter_occ(wait, l);
            let last = self.last_iter_occ(set, l);
            if !extra(self, before.unwrap(), first, l) || !extra(self, last, after.unwrap(), l) {
                return self.fall_back_to_barrier_all(o1, o2, src, dst, useless, cp);
            }
        }
        self.colour_solver(src, dst).commit();
        let id = self.new_pair(pair);
        self.synced.entry(key).or_insert(id);
        self.commit(id, None);
        for (e, parent) in extras {
            let eid = self.new_pair(e);
            self.commit(eid, Some(parent));
        }
    }

    /// Adds interference edges between `node` and every chosen pair `p`
    /// overlaps; false when the pipe pair is then out of ids.
    pub(super) fn add_interference(&mut self, p: &Pair, node: ColourNode) -> bool {
        let mut others = Vec::new();
        if !p.is_barrier() && !p.dont_check {
            for index in [&self.spans_chosen, &self.spans_persistent] {
                let Some(index) = index.get(&(p.src, p.dst)) else { continue };
                for c in index.candidates(p.start, p.end) {
                    let q = &self.pairs[c];
                    if p.end >= q.start && q.end >= p.start {
                        let n = q.colour.expect("a chosen set/wait has a colour");
                        if n != node && !others.contains(&n) {
                            others.push(n);
                        }
                    }
                }
            }
        }
        let solver = self.colour_solver(p.src, p.dst);
        for n in others {
            solver.add_edge(node, n);
        }
        solver.is_colourable()
    }

    /// Upstream's preference among widening candidates: the later set,
    /// then the earlier wait, then the earlier ops.
    fn reuse_before(&self, a: PairId, b: PairId) -> bool {
        let (x, y) = (&self.pairs[a], &self.pairs[b]);
        if x.start != y.start {
            return x.start < y.start;
        }
        if x.end != y.end {
            return x.end > y.end;
        }
        let pre = |n: Option<NodeId>| n.map_or(0, |n| self.tree.nodes[n].pre_order);
        if x.op1 != y.op1 {
            return pre(x.op1) > pre(y.op1);
        }
        if x.op2 != y.op2 {
            return pre(x.op2) > pre(y.op2);
        }
        false
    }

    /// Once ids ran out on a pipe pair, a new sync may instead widen an
    /// earlier one it overlaps: the earlier sync's set moves to the new set
    /// position, so one set/wait orders both (spec §4.9).
    fn reuse(&mut self, p: &Pair) -> bool {
        if p.is_barrier() || !self.barrier_all_pairs.is_empty() {
            return false;
        }
        let key = (p.backward_loop, p.op1, p.op2, p.src, p.dst);
        let old = if p.useless { self.replaced.get(&key).copied() } else { None };
        if p.useless && old.is_none() {
            return false;
        }
        let pair = (p.src, p.dst);
        if old.is_none()
            && self.reuse_budget.get(&pair).copied().unwrap_or(0) <= self.reused.get(&pair).copied().unwrap_or(0)
        {
            return false;
        }
        let (s1, s2) = (p.par1.expect("a set/wait has scopes"), p.par2.expect("a set/wait has scopes"));
        let mut candidates: Vec<PairId> = Vec::new();
        for list in [&self.scope_chosen, &self.persistent_scope_chosen] {
            for s in [s1, s2] {
                candidates.extend(list.get(&s).map(Vec::as_slice).unwrap_or(&[]));
            }
        }
        candidates
            .extend(self.scope_pair_chosen.get(&s1).into_iter().flatten().filter(|(b, _)| *b == s2).map(|(_, q)| *q));
        let mut best: Option<PairId> = None;
        for q in candidates {
            let c = &self.pairs[q];
            if c.is_barrier() || c.dont_check || c.could_not_run || c.src != p.src || c.dst != p.dst {
                continue;
            }
            if !(p.end >= c.start && c.end >= p.start) || c.start >= p.start {
                continue;
            }
            if p.ids.num < c.ids.num || (p.ids.num > c.ids.num && !p.ids.num.is_multiple_of(c.ids.num)) {
                continue;
            }
            if best.is_none_or(|b| self.reuse_before(b, q)) {
                best = Some(q);
            }
        }
        let Some(q) = best else { return false };
        let mut widened = self.pairs[q].clone();
        widened.set_occ = p.set_occ;
        widened.start = p.start;
        if !p.useless {
            *self.reused.entry(pair).or_insert(0) += 1;
        }
        self.erase(q);
        let id = self.new_pair(widened);
        if !p.useless {
            self.replaced.insert(key, id);
        }
        self.commit(id, None);
        true
    }

    /// Takes a chosen pair back out of the lists.
    fn erase(&mut self, id: PairId) {
        let p = &self.pairs[id];
        let (par1, par2) = (p.par1.expect("a committed pair has scopes"), p.par2.expect("a committed pair has scopes"));
        let index = if par1 == par2 { &mut self.cover_same } else { &mut self.cover_cross };
        index.remove(par1, p.start, id);
        if let Some(spans) = self.spans_chosen.get_mut(&(p.src, p.dst)) {
            spans.remove(p.start, id);
        }
        self.chosen.retain(|p| *p != id);
        for list in self.scope_chosen.values_mut() {
            list.retain(|p| *p != id);
        }
        for list in self.scope_pair_chosen.values_mut() {
            list.retain(|(_, p)| *p != id);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fall_back_to_barrier_all(
        &mut self,
        o1: OccId,
        o2: OccId,
        src: Pipe,
        dst: Pipe,
        useless: bool,
        cp: super::colour::Checkpoint,
    ) {
        self.colour_solver(src, dst).rollback(cp);
        let wait = self.barrier_wait_occ(o1, o2);
        let node = self.tree.occs[wait].node;
        self.insert_barrier_all_before(node, useless, false);
        self.barrier_all_pairs.insert((src, dst));
    }

    fn insert_barrier_all_before(&mut self, node: NodeId, mut useless: bool, persistent: bool) {
        for occ in self.tree.node_occs[node].clone() {
            let idx = self.tree.occs[occ].start;
            let p = self.new_pair(Pair {
                set_occ: Some(occ),
                wait_occ: Some(occ),
                src: pipes::ALL,
                dst: pipes::ALL,
                start: idx,
                end: idx,
                useless,
                persistent,
                ..blank_pair()
            });
            if !persistent {
                self.barrier_all_before.push((node, occ));
            }
            self.commit(p, None);
            useless = true;
        }
    }

    fn persist_a_barrier_all(&mut self) {
        let t = &self.tree;
        let chosen = self.barrier_all_before.iter().map(|(n, _)| *n).min_by_key(|n| t.nodes[*n].pre_order);
        if let Some(n) = chosen {
            self.insert_barrier_all_before(n, false, true);
        }
    }

    fn first_iter_occ(&self, occ: OccId, par: OccId) -> OccId {
        let t = &self.tree;
        if t.occs[par].depth + 1 < t.occs[occ].depth {
            let np = self.first_iter_occ(t.nth_parent(occ, t.occs[occ].depth - t.occs[par].depth - 1), par);
            return self.first_iter_occ(occ, np);
        }
        let node = t.occs[occ].node;
        *t.occs[par].children.iter().find(|c| t.occs[**c].node == node).expect("the same op in the first copy")
    }

    fn last_iter_occ(&self, occ: OccId, par: OccId) -> OccId {
        let t = &self.tree;
        if t.occs[par].depth + 1 < t.occs[occ].depth {
            let np = self.last_iter_occ(t.nth_parent(occ, t.occs[occ].depth - t.occs[par].depth - 1), par);
            return self.last_iter_occ(occ, np);
        }
        let node = t.occs[occ].node;
        *t.occs[par].children.iter().rev().find(|c| t.occs[**c].node == node).expect("the same op in the last copy")
    }

    pub(super) fn new_pair(&mut self, p: Pair) -> PairId {
        self.pairs.push(p);
        self.pairs.len() - 1
    }

    /// Registers a chosen pair under its scope(s), for coverage queries.
    pub(super) fn commit(&mut self, id: PairId, parent: Option<OccId>) {
        let t = &self.tree;
        let p = &mut self.pairs[id];
        let (par1, par2) = match parent {
            Some(s) => (s, s),
            None => (
                p.par1.or_else(|| t.occs[p.set_occ.unwrap()].parent).expect("a parent scope"),
                p.par2.or_else(|| t.occs[p.wait_occ.unwrap()].parent).expect("a parent scope"),
            ),
        };
        p.par1 = Some(par1);
        p.par2 = Some(par2);
        if !p.is_barrier() && !p.dont_check {
            let spans = if p.persistent { &mut self.spans_persistent } else { &mut self.spans_chosen };
            spans.entry((p.src, p.dst)).or_default().insert(p.start, p.end, id);
        }
        if p.persistent {
            self.cover_persistent.insert(par1, p.start, id);
            self.persistent_scope_chosen.entry(par1).or_default().push(id);
            self.persistent.push(id);
        } else {
            if par1 == par2 {
                self.cover_same.insert(par1, p.start, id);
                self.scope_chosen.entry(par1).or_default().push(id);
            } else {
                self.cover_cross.insert(par1, p.start, id);
                self.scope_pair_chosen.entry(par1).or_default().push((par2, id));
            }
            self.chosen.push(id);
        }
    }

    // ----- outer rounds (§4.8) -----

    fn insert_merged_backward_pairs(&mut self) {
        for (scope, pairs) in self.after_merge.clone() {
            for (src, dst) in pairs {
                for occ in self.tree.node_occs[scope].clone() {
                    let t = &self.tree;
                    let parent = t.occs[occ].parent.expect("below the function");
                    let (mut start, mut end) = (t.occs[occ].start, t.occs[occ].end);
                    let (mut set, mut wait) = (None, None);
                    if t.kind_of_occ(occ) == Kind::Loop {
                        set = self.before_ph(occ);
                        wait = self.after_ph(occ);
                        start = t.occs[set.unwrap()].end;
                        end = t.occs[wait.unwrap()].start;
                    }
                    let p = self.new_pair(Pair {
                        set_occ: set,
                        wait_occ: wait,
                        src,
                        dst,
                        start,
                        end,
                        useless: true,
                        dont_check: true,
                        ..blank_pair()
                    });
                    self.commit(p, Some(parent));
                }
            }
        }
    }

    fn consider_outer_backward_pairs(&mut self) -> bool {
        let mut changed = false;
        for (scope, list) in &mut self.after_merge {
            let before = list.len();
            let events = self.backward_events.get(*scope);
            list.retain(|p| events.is_some_and(|m| m.iter().any(|(k, _)| k == p)));
            changed |= list.len() != before;
        }
        let merged: FxHashSet<NodeId> = self.after_merge.iter().map(|(s, _)| *s).collect();
        let mut depth = None;
        let mut chosen = Vec::new();
        for (scope, _) in self.backward_events.iter() {
            if merged.contains(scope) {
                continue;
            }
            let d = self.tree.node_depth(*scope);
            match depth {
                Some(x) if x == d => chosen.push(*scope),
                Some(x) if x > d => {}
                _ => {
                    chosen = vec![*scope];
                    depth = Some(d);
                }
            }
        }
        if chosen.is_empty() {
            return false;
        }
        for scope in chosen {
            let keys: Vec<(Pipe, Pipe)> = self
                .backward_events
                .get(scope)
                .map(|m| m.iter().filter(|(_, ids)| !ids.is_empty()).map(|(k, _)| *k).collect())
                .unwrap_or_default();
            let entry = match self.after_merge.iter().position(|(s, _)| *s == scope) {
                Some(i) => i,
                None => {
                    self.after_merge.push((scope, Vec::new()));
                    self.after_merge.len() - 1
                }
            };
            for k in keys {
                if !self.after_merge[entry].1.contains(&k) {
                    self.after_merge[entry].1.push(k);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Op of a node, for messages.
    pub fn op_of(&self, n: NodeId) -> Option<OpId> {
        self.tree.nodes[n].op
    }
}

pub(super) fn blank_pair() -> Pair {
    Pair {
        op1: None,
        op2: None,
        set_occ: None,
        wait_occ: None,
        src: pipes::UNASSIGNED,
        dst: pipes::UNASSIGNED,
        start: 0,
        end: 0,
        backward: false,
        inner_backward: false,
        useless: false,
        persistent: false,
        could_not_run: false,
        dont_check: false,
        ids: EventIds::one(),
        colour: None,
        backward_loop: None,
        pinned: None,
        par1: None,
        par2: None,
        unit_flag: false,
    }
}

fn lcm_of(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    if a == 0 || b == 0 { 0 } else { a / gcd(a, b) * b }
}

/// Earliest time `dst` is known to follow `src` from time `start`, through
/// sync edges (`set pipe -> wait pipe` over `[s, e]`), or None. A wait on
/// PIPE_S holds back the issue of everything after it; PIPE_ALL orders all.
fn reach(edges: &[(Pipe, Pipe, i64, i64)], src: Pipe, dst: Pipe, start: i64, end: i64) -> Option<i64> {
    // Pipes are small numbers: an array beats a map here (this runs once
    // per coverage query).
    let mut dist = [i64::MAX; 256];
    let mut queue = std::collections::BinaryHeap::new();
    queue.push(std::cmp::Reverse((start, src)));
    while let Some(std::cmp::Reverse((t, p))) = queue.pop() {
        let known = dist[usize::from(p)];
        if known != i64::MAX {
            if known < t {
                continue;
            }
            // Reaching the destination, or a wait on the scalar pipe (which
            // holds back everything issued after it), orders the pair.
            if p == dst || p == pipes::S {
                return Some(t);
            }
        }
        if p == pipes::ALL {
            return Some(t);
        }
        for &(s, d, es, ee) in edges {
            if s != p || es < t || ee > end {
                continue;
            }
            if dist[usize::from(d)] > ee {
                dist[usize::from(d)] = ee;
                queue.push(std::cmp::Reverse((ee, d)));
            }
        }
    }
    None
}
