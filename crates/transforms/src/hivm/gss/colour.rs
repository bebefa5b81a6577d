//! Event-id colouring for GSS syncs: upstream's `EventIdSolver`
//! (spec sync-solver.md §4.7 steps 5-7, §4.10, §6.3-§6.4).
//!
//! There is one solver per (set pipe, wait pipe). A node is one sync, together
//! with the useless copies and reservation pairs that share it. An edge says
//! that two syncs are live at the same time and so need disjoint ids.
//!
//! The caller drives it like this:
//! 1. `reserve` the ids pinned by custom macros (again after every solver reset);
//! 2. for each new sync: `checkpoint`, `add_node` / `add_edge`, `is_colourable`,
//!    then `rollback` (and fall back to a barrier) or `commit`;
//! 3. `assign` once, for the final ids (two colourings with a shrink in between);
//! 4. `allocate_unused` for custom-macro internal slots.
//!
//! Everything here mirrors upstream choice for choice, because the event ids
//! are visible in the lit tests' CHECK lines. That includes a few quirks, noted
//! where they occur.

use std::collections::{BTreeMap, BTreeSet};

/// A node in one solver: its index in creation order.
pub type ColourNode = usize;

/// A position in the undo log, taken by [`EventIdSolver::checkpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint(usize);

/// Why [`EventIdSolver::assign`] refused to run. Upstream asserts that neither
/// can happen, so either one is a bug in the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignError {
    /// Some changes were never committed, or edges were added without a later
    /// `is_colourable` check.
    PendingChanges,
    /// The committed graph needs more ids than the current limit.
    NotColourable,
}

#[derive(Clone, Debug)]
struct Node {
    id_count: u32,
    reversed: bool,
    pinned: Option<u32>,
    ids: Vec<u32>,
    /// Neighbour -> number of `add_edge` calls. Counting the calls lets a
    /// rollback remove one duplicate edge without losing the others.
    neighbours: BTreeMap<ColourNode, u32>,
    /// Sum of `id_count` over distinct neighbours, for the quick test.
    neighbour_ids: u32,
}

/// One undo-log entry. Each entry holds what is needed to reverse one change.
#[derive(Clone, Debug)]
enum Undo {
    AddNode,
    AddEdge(ColourNode, ColourNode),
    SetIds(ColourNode, Vec<u32>),
    SetNeedsRecolour(bool),
    Pin(ColourNode, Option<u32>),
}

/// Colouring state for one (set pipe, wait pipe). To reset, build a new one:
/// that is what upstream does at every solver reset.
#[derive(Clone, Debug)]
pub struct EventIdSolver {
    /// Upstream's `eventIdsNumMax`: the hardware count until `assign` shrinks
    /// it to the number of ids actually used.
    limit: u32,
    /// Set when the quick test fails. Until then, nodes keep whatever ids they
    /// last had, which is cheap and good enough to count with.
    needs_recolour: bool,
    nodes: Vec<Node>,
    reserved: BTreeSet<u32>,
    undo: Vec<Undo>,
    /// How many nodes hold each id, so that counting the distinct ids does
    /// not walk every node (it is asked once per new sync).
    id_uses: BTreeMap<u32, u32>,
}

impl EventIdSolver {
    /// A solver for a pipe pair with `hw_ids` event ids (8, or 7 on the pairs
    /// that lose one to the hardware, spec §1.4).
    pub fn new(hw_ids: u32) -> Self {
        EventIdSolver {
            limit: hw_ids,
            needs_recolour: false,
            nodes: Vec::new(),
            reserved: BTreeSet::new(),
            undo: Vec::new(),
            id_uses: BTreeMap::new(),
        }
    }

    /// The current id limit: the hardware count, or after `assign` the number
    /// of distinct ids in use.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Adds a sync that needs `event_id_num` ids (more than one for a
    /// multi-buffer rotation). `reversed` makes it take ids from the top of
    /// the range. Upstream sets it for inner-backward syncs whose ends both
    /// sit directly in the backward loop.
    ///
    /// The node starts with ids `[0, event_id_num)`. The ids stay like that
    /// until a recolouring, and upstream counts them as they are.
    pub fn add_node(&mut self, event_id_num: u32, reversed: bool) -> ColourNode {
        assert!(event_id_num > 0, "an event-id node needs at least one id");
        self.nodes.push(Node {
            id_count: event_id_num,
            reversed,
            pinned: None,
            ids: (0..event_id_num).collect(),
            neighbours: BTreeMap::new(),
            neighbour_ids: 0,
        });
        self.count_ids(&(0..event_id_num).collect::<Vec<_>>(), true);
        self.undo.push(Undo::AddNode);
        self.nodes.len() - 1
    }

    /// Forces `n` to `id` whatever its neighbours hold (custom-macro pinning).
    /// Like upstream, the pin only applies to a node with exactly one id. The
    /// caller is expected to have cut pinned syncs down to one id already.
    pub fn pin(&mut self, n: ColourNode, id: u32) {
        let old = self.nodes[n].pinned.replace(id);
        self.undo.push(Undo::Pin(n, old));
    }

    /// Keeps `id` away from every non-pinned node. Not undone by `rollback`:
    /// upstream's reservations also live outside its action stack.
    pub fn reserve(&mut self, id: u32) {
        self.reserved.insert(id);
    }

    /// Records that `a` and `b` are live at the same time. An edge from a
    /// node to itself is ignored. If either end now fails the quick test
    /// (own ids plus neighbours' ids > limit), the next `is_colourable` does a
    /// full recolouring.
    pub fn add_edge(&mut self, a: ColourNode, b: ColourNode) {
        if a == b {
            return;
        }
        self.undo.push(Undo::AddEdge(a, b));
        self.link(a, b);
        self.link(b, a);
        if !self.needs_recolour && (self.over_quick_bound(a) || self.over_quick_bound(b)) {
            self.set_needs_recolour(true);
        }
    }

    /// `add_edge(a, b)` for every `b`, in order (upstream `addConflicts`).
    pub fn add_edges(&mut self, a: ColourNode, others: impl IntoIterator<Item = ColourNode>) {
        for b in others {
            self.add_edge(a, b);
        }
    }

    /// Marks the current state so that `rollback` can return to it
    /// (upstream `pushActionNone`). Checkpoints nest. A checkpoint taken
    /// before a `commit` is no longer valid after it.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint(self.undo.len())
    }

    /// Undoes everything since `cp`: nodes, edges, pins, and any recolouring
    /// that `is_colourable` did on the way (upstream `undoActions`).
    pub fn rollback(&mut self, cp: Checkpoint) {
        debug_assert!(cp.0 <= self.undo.len(), "checkpoint taken before the last commit");
        while self.undo.len() > cp.0 {
            let Some(entry) = self.undo.pop() else { break };
            match entry {
                Undo::AddNode => {
                    let node = self.nodes.pop();
                    debug_assert!(node.as_ref().is_some_and(|n| n.neighbours.is_empty()));
                    if let Some(n) = node {
                        self.count_ids(&n.ids, false);
                    }
                }
                Undo::AddEdge(a, b) => {
                    self.unlink(a, b);
                    self.unlink(b, a);
                }
                Undo::SetIds(n, ids) => {
                    let old = std::mem::replace(&mut self.nodes[n].ids, ids);
                    self.count_ids(&old, false);
                    let new = self.nodes[n].ids.clone();
                    self.count_ids(&new, true);
                }
                Undo::SetNeedsRecolour(old) => self.needs_recolour = old,
                Undo::Pin(n, old) => self.nodes[n].pinned = old,
            }
        }
    }

    /// Makes every change so far permanent by dropping the undo log
    /// (upstream `clearActionStack`). `assign` requires this first.
    pub fn commit(&mut self) {
        self.undo.clear();
    }

    /// Whether the graph still fits in the limit. The answer is counted on the
    /// ids the nodes hold now. They are recomputed only when an edge has
    /// failed the quick test since the last colouring. A recolouring is logged
    /// like any other change, so a rollback undoes it and a commit keeps it.
    pub fn is_colourable(&mut self) -> bool {
        if self.needs_recolour {
            self.colour();
        }
        self.distinct_ids() <= self.limit
    }

    /// Final ids (upstream `shrinkEventIdMaxToEventIdNum`). The first
    /// colouring runs with the current limit. The limit then shrinks to the
    /// number of distinct ids that colouring used, and a second colouring
    /// runs. The shrink only matters to reversed nodes: they move from the
    /// top of the hardware range to the top of the compacted one.
    pub fn assign(&mut self) -> Result<(), AssignError> {
        if self.needs_recolour || !self.undo.is_empty() {
            return Err(AssignError::PendingChanges);
        }
        if !self.is_colourable() {
            return Err(AssignError::NotColourable);
        }
        self.colour();
        self.limit = self.distinct_ids();
        self.colour();
        self.commit();
        Ok(())
    }

    /// The ids of `n`, ascending (except after the reversed-node fallback, see
    /// `choose_ids`). Before `assign` they are provisional.
    pub fn ids(&self, n: ColourNode) -> &[u32] {
        &self.nodes[n].ids
    }

    /// Every id held by a node, plus the reserved ones. These are the ids that
    /// an internal custom-macro slot must avoid.
    pub fn used_ids(&self) -> BTreeSet<u32> {
        let mut used = self.reserved.clone();
        for node in &self.nodes {
            used.extend(node.ids.iter().copied());
        }
        used
    }

    /// The smallest id below `limit` that is neither held nor reserved. It is
    /// then reserved, so a second slot on the same pair gets the next one
    /// (upstream `allocateUnusedEventId`, spec §6.4). `limit` is passed in
    /// rather than taken from the solver because `assign` has shrunk the
    /// solver's limit by then, while the slot may use the full hardware range.
    pub fn allocate_unused(&mut self, limit: u32) -> Option<u32> {
        let used = self.used_ids();
        let id = (0..limit).find(|id| !used.contains(id))?;
        self.reserve(id);
        Some(id)
    }

    fn link(&mut self, a: ColourNode, b: ColourNode) {
        let b_ids = self.nodes[b].id_count;
        let node = &mut self.nodes[a];
        let count = node.neighbours.entry(b).or_insert(0);
        *count += 1;
        if *count == 1 {
            node.neighbour_ids += b_ids;
        }
    }

    fn unlink(&mut self, a: ColourNode, b: ColourNode) {
        let b_ids = self.nodes[b].id_count;
        let node = &mut self.nodes[a];
        let Some(count) = node.neighbours.get_mut(&b) else {
            debug_assert!(false, "undoing an edge that is not there");
            return;
        };
        *count -= 1;
        if *count == 0 {
            node.neighbours.remove(&b);
            node.neighbour_ids -= b_ids;
        }
    }

    fn over_quick_bound(&self, n: ColourNode) -> bool {
        let node = &self.nodes[n];
        node.neighbour_ids + node.id_count > self.limit
    }

    /// Reserved ids do not count here. So a solver with a reserved id can use
    /// `limit` other ids, and the largest of them is then past the hardware
    /// range. Upstream behaves the same way, and the port keeps it.
    fn distinct_ids(&self) -> u32 {
        u32::try_from(self.id_uses.len()).unwrap_or(u32::MAX)
    }

    fn count_ids(&mut self, ids: &[u32], add: bool) {
        for id in ids {
            if add {
                *self.id_uses.entry(*id).or_insert(0) += 1;
            } else if let Some(c) = self.id_uses.get_mut(id) {
                *c -= 1;
                if *c == 0 {
                    self.id_uses.remove(id);
                }
            }
        }
    }

    fn set_ids(&mut self, n: ColourNode, ids: Vec<u32>) {
        if self.nodes[n].ids != ids {
            self.count_ids(&ids, true);
            let old = std::mem::replace(&mut self.nodes[n].ids, ids);
            self.count_ids(&old, false);
            self.undo.push(Undo::SetIds(n, old));
        }
    }

    fn set_needs_recolour(&mut self, value: bool) {
        if self.needs_recolour != value {
            self.undo.push(Undo::SetNeedsRecolour(self.needs_recolour));
            self.needs_recolour = value;
        }
    }

    /// One full colouring (upstream `calcDefaultEventIds`). Nodes are removed
    /// smallest-degree first, where a node's degree is its own id count plus
    /// its remaining neighbours' id counts. Ties go to non-reversed before
    /// reversed, then to creation order. Nodes are then coloured in the reverse
    /// of that removal order. So when degrees tie, the later-created node is
    /// coloured first and gets the lower id (spec §7.11).
    fn colour(&mut self) {
        for n in 0..self.nodes.len() {
            self.set_ids(n, Vec::new());
        }

        let mut degree: Vec<u32> = self.nodes.iter().map(|n| n.neighbour_ids + n.id_count).collect();
        let mut queue: BTreeSet<(u32, bool, ColourNode)> =
            self.nodes.iter().enumerate().map(|(i, n)| (degree[i], n.reversed, i)).collect();
        let mut removed = vec![false; self.nodes.len()];
        let mut order = Vec::with_capacity(self.nodes.len());
        while let Some((_, _, n)) = queue.pop_first() {
            removed[n] = true;
            order.push(n);
            let n_ids = self.nodes[n].id_count;
            for &m in self.nodes[n].neighbours.keys() {
                if !removed[m] {
                    let reversed = self.nodes[m].reversed;
                    queue.remove(&(degree[m], reversed, m));
                    degree[m] -= n_ids;
                    queue.insert((degree[m], reversed, m));
                }
            }
        }

        let mut running_max = 0;
        for &n in order.iter().rev() {
            let ids = self.choose_ids(n, running_max);
            // Upstream tracks the last id, not the largest. The two differ only
            // after the reversed-node fallback.
            if let Some(&last) = ids.last() {
                running_max = running_max.max(last);
            }
            self.set_ids(n, ids);
        }
        self.set_needs_recolour(false);
    }

    /// Ids for `n`, given the ids of the neighbours already coloured in this
    /// pass (the others were cleared) and `running_max`, the running maximum
    /// of the pass.
    fn choose_ids(&self, n: ColourNode, running_max: u32) -> Vec<u32> {
        let node = &self.nodes[n];
        if let (1, Some(pinned)) = (node.id_count, node.pinned) {
            return vec![pinned];
        }
        let mut taken = self.reserved.clone();
        for &m in node.neighbours.keys() {
            taken.extend(self.nodes[m].ids.iter().copied());
        }
        let want = node.id_count as usize;
        if !node.reversed {
            return (0..).filter(|id| !taken.contains(id)).take(want).collect();
        }
        // Reversed nodes scan down from the top of the range. The range can
        // grow past the limit when earlier nodes went above it.
        let top = running_max.max(self.limit.saturating_sub(1));
        let mut ids: Vec<u32> = (0..=top).rev().filter(|id| !taken.contains(id)).take(want).collect();
        ids.reverse();
        // If that is not enough, upstream takes the ids just above the running
        // maximum. It does not check them against reserved ids, and the list
        // can come out unsorted. Copied as is.
        let short = want - ids.len();
        ids.extend((1..=short as u32).map(|i| running_max + i));
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assigned(solver: &mut EventIdSolver) {
        solver.commit();
        solver.assign().expect("colourable and committed");
    }

    /// §7.11: two overlapping MTE2→V syncs. The quick test passes, so the ids
    /// stay at their creation defaults while solving. At the end the
    /// earlier-created node gets ID1 and the later one ID0.
    #[test]
    fn later_created_interfering_node_gets_lower_id() {
        let mut s = EventIdSolver::new(7);
        let first = s.add_node(1, false);
        let second = s.add_node(1, false);
        s.add_edge(first, second);
        assert!(s.is_colourable());
        assert_eq!((s.ids(first), s.ids(second)), (&[0][..], &[0][..]));
        assigned(&mut s);
        assert_eq!(s.ids(first), [1]);
        assert_eq!(s.ids(second), [0]);
        assert_eq!(s.limit(), 2);
    }

    /// §7.8: on (MTE2,V), which has 7 ids, the reversed backward sync CP1 and
    /// the forward sync CP5 never overlap. The first pass gives {6, 0}. After
    /// the shrink to 2 ids, CP1 = ID1 and CP5 = ID0.
    #[test]
    fn reversed_and_normal_nodes_split_after_shrink() {
        let mut s = EventIdSolver::new(7);
        let cp1 = s.add_node(1, true);
        let cp5 = s.add_node(1, false);
        assert!(s.is_colourable());
        s.commit();

        s.colour();
        assert_eq!((s.ids(cp1), s.ids(cp5)), (&[6][..], &[0][..]));
        s.commit();

        s.assign().unwrap();
        assert_eq!(s.ids(cp1), [1]);
        assert_eq!(s.ids(cp5), [0]);
        assert_eq!(s.limit(), 2);
    }

    /// §7.12: only the reversed node leaves ID0, whether or not it interferes
    /// with one of the normal nodes.
    #[test]
    fn reversed_node_takes_top_of_compacted_range() {
        for interfere in [false, true] {
            let mut s = EventIdSolver::new(8);
            let inner = s.add_node(1, true);
            let outer_backward = s.add_node(1, false);
            let forward = s.add_node(1, false);
            if interfere {
                s.add_edge(inner, outer_backward);
            }
            assigned(&mut s);
            assert_eq!(s.ids(inner), [1], "interfere = {interfere}");
            assert_eq!(s.ids(outer_backward), [0]);
            assert_eq!(s.ids(forward), [0]);
        }
    }

    /// §7.13: a double-buffer backward sync takes [6, 7] in the first pass and
    /// [0, 1] after the shrink.
    #[test]
    fn two_id_reversed_node_gets_zero_and_one() {
        let mut s = EventIdSolver::new(8);
        let n = s.add_node(2, true);
        assert_eq!(s.ids(n), [0, 1]);
        s.commit();
        s.colour();
        assert_eq!(s.ids(n), [6, 7]);
        s.commit();
        s.assign().unwrap();
        assert_eq!(s.ids(n), [0, 1]);
    }

    /// A clique of 8 on 8 ids uses every id. The latest-created node is
    /// coloured first and gets ID0.
    #[test]
    fn full_clique_uses_every_id_latest_lowest() {
        let mut s = EventIdSolver::new(8);
        let nodes: Vec<_> = (0..8).map(|_| s.add_node(1, false)).collect();
        for (i, &a) in nodes.iter().enumerate() {
            s.add_edges(a, nodes[..i].iter().copied());
        }
        assert!(s.is_colourable());
        assigned(&mut s);
        for (i, &n) in nodes.iter().enumerate() {
            assert_eq!(s.ids(n), [7 - i as u32]);
        }
    }

    /// More mutually interfering nodes than ids: the quick test fails, the
    /// recolouring needs 9 ids, and rolling back the last node restores a
    /// colourable graph that still holds its creation-default ids.
    #[test]
    fn clique_larger_than_hw_is_not_colourable() {
        let mut s = EventIdSolver::new(8);
        let nodes: Vec<_> = (0..8).map(|_| s.add_node(1, false)).collect();
        for (i, &a) in nodes.iter().enumerate() {
            s.add_edges(a, nodes[..i].iter().copied());
        }
        assert!(s.is_colourable());
        s.commit();

        let cp = s.checkpoint();
        let extra = s.add_node(1, false);
        s.add_edges(extra, nodes.iter().copied());
        assert!(!s.is_colourable());
        s.rollback(cp);

        assert_eq!(s.nodes.len(), 8);
        assert!(!s.needs_recolour);
        assert!(nodes.iter().all(|&n| s.ids(n) == [0]));
        assert!(s.is_colourable());
        assert_eq!(s.assign(), Ok(()));
    }

    /// Without any edges, a node wider than the hardware range fails on its
    /// default ids alone.
    #[test]
    fn node_wider_than_hw_is_not_colourable() {
        let mut s = EventIdSolver::new(8);
        s.add_node(9, false);
        assert!(!s.is_colourable());
    }

    #[test]
    fn rollback_restores_edges_ids_and_node_indices() {
        let mut s = EventIdSolver::new(2);
        let a = s.add_node(1, false);
        let b = s.add_node(1, false);
        s.add_edge(a, b);
        assert!(s.is_colourable());
        s.commit();

        // A triangle fails the quick test, so it is recoloured, and that
        // recolouring must be undone too.
        let cp = s.checkpoint();
        let c = s.add_node(1, false);
        s.add_edges(c, [a, b]);
        assert!(s.needs_recolour);
        assert!(!s.is_colourable());
        assert_ne!(s.ids(a), s.ids(b));
        s.rollback(cp);
        assert_eq!(s.nodes.len(), 2);
        assert_eq!((s.ids(a), s.ids(b)), (&[0][..], &[0][..]));
        assert!(!s.needs_recolour);
        assert_eq!(s.nodes[a].neighbour_ids, 1);

        // The index is reused. A duplicate edge survives undoing its twin.
        let cp = s.checkpoint();
        let d = s.add_node(1, false);
        assert_eq!(d, c);
        s.add_edge(a, b);
        s.pin(d, 1);
        s.rollback(cp);
        assert_eq!(s.nodes[a].neighbours.get(&b), Some(&1));
        assert_eq!(s.nodes[b].neighbour_ids, 1);

        assigned(&mut s);
        assert_eq!((s.ids(a), s.ids(b)), (&[1][..], &[0][..]));
    }

    /// A committed recolouring stays: later checkpoints and count checks start
    /// from it, not from the creation defaults.
    #[test]
    fn commit_keeps_recolouring() {
        let mut s = EventIdSolver::new(2);
        let a = s.add_node(1, false);
        let b = s.add_node(1, false);
        let c = s.add_node(1, false);
        s.add_edges(b, [a, c]);
        assert!(s.needs_recolour);
        assert!(s.is_colourable());
        s.commit();

        let cp = s.checkpoint();
        s.add_node(1, false);
        s.rollback(cp);
        assert_eq!([s.ids(a), s.ids(b), s.ids(c)], [[0], [1], [0]]);
    }

    /// A pinned single-id node keeps its id even against a neighbour.
    /// Normal nodes avoid it only because the pin is also reserved.
    #[test]
    fn pinned_id_wins_over_colouring() {
        let mut s = EventIdSolver::new(8);
        s.reserve(0);
        let pinned = s.add_node(1, false);
        s.pin(pinned, 0);
        let other = s.add_node(1, false);
        let reversed = s.add_node(1, true);
        s.add_edges(pinned, [other, reversed]);
        assigned(&mut s);
        assert_eq!(s.ids(pinned), [0]);
        assert_eq!(s.ids(other), [1]);
        // Pass 1: {0, 1, 7} → limit 3 → the reversed node takes 2.
        assert_eq!(s.ids(reversed), [2]);
    }

    #[test]
    fn pin_is_ignored_on_multi_id_node() {
        let mut s = EventIdSolver::new(8);
        let n = s.add_node(2, false);
        s.pin(n, 5);
        assigned(&mut s);
        assert_eq!(s.ids(n), [0, 1]);
    }

    #[test]
    fn reserved_ids_are_skipped() {
        let mut s = EventIdSolver::new(8);
        s.reserve(0);
        s.reserve(7);
        let normal = s.add_node(1, false);
        let reversed = s.add_node(1, true);
        s.add_edge(normal, reversed);
        s.commit();
        s.colour();
        assert_eq!((s.ids(normal), s.ids(reversed)), (&[1][..], &[6][..]));
        s.commit();
        s.assign().unwrap();
        // With limit 2 the reversed node is coloured first and finds 1 free.
        // The normal node then skips 0 (reserved) and 1, so it goes past the
        // limit to 2.
        assert_eq!(s.limit(), 2);
        assert_eq!(s.ids(reversed), [1]);
        assert_eq!(s.ids(normal), [2]);
    }

    /// Upstream quirk, kept on purpose: reserved ids do not count against the
    /// limit, so 8 syncs beside a reserved id end up on ids 1..=8.
    #[test]
    fn reserved_ids_do_not_count_against_limit() {
        let mut s = EventIdSolver::new(8);
        s.reserve(0);
        let nodes: Vec<_> = (0..8).map(|_| s.add_node(1, false)).collect();
        for (i, &a) in nodes.iter().enumerate() {
            s.add_edges(a, nodes[..i].iter().copied());
        }
        assert!(s.is_colourable());
        assigned(&mut s);
        let ids: BTreeSet<u32> = nodes.iter().flat_map(|&n| s.ids(n).to_vec()).collect();
        assert_eq!(ids, (1..=8).collect());
    }

    /// Upstream quirk, kept on purpose: the fallback above the running maximum
    /// ignores reserved ids.
    #[test]
    fn reversed_fallback_appends_above_running_max() {
        let mut s = EventIdSolver::new(2);
        s.reserve(1);
        let n = s.add_node(2, true);
        s.commit();
        s.colour();
        assert_eq!(s.ids(n), [0, 1]);
    }

    /// §7.1 and §7.2: an internal slot takes the smallest id that is neither
    /// held nor reserved, then keeps it reserved.
    #[test]
    fn internal_slot_takes_smallest_free_id() {
        let mut s = EventIdSolver::new(7);
        s.add_node(1, false);
        assigned(&mut s);
        assert_eq!(s.used_ids(), BTreeSet::from([0]));
        assert_eq!(s.allocate_unused(7), Some(1));

        let mut empty = EventIdSolver::new(8);
        assert_eq!(empty.allocate_unused(8), Some(0));
        assert_eq!(empty.allocate_unused(8), Some(1));
        assert_eq!(empty.used_ids(), BTreeSet::from([0, 1]));

        let mut full = EventIdSolver::new(1);
        full.reserve(0);
        assert_eq!(full.allocate_unused(1), None);
    }

    #[test]
    fn assign_requires_committed_changes() {
        let mut s = EventIdSolver::new(8);
        let a = s.add_node(1, false);
        let b = s.add_node(1, false);
        s.add_edge(a, a);
        assert!(s.nodes[a].neighbours.is_empty());
        s.add_edge(a, b);
        assert_eq!(s.assign(), Err(AssignError::PendingChanges));
        s.commit();
        assert_eq!(s.assign(), Ok(()));

        let mut wide = EventIdSolver::new(8);
        wide.add_node(9, false);
        wide.commit();
        assert_eq!(wide.assign(), Err(AssignError::NotColourable));
    }
}
