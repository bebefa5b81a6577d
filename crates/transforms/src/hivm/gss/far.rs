//! Settling a later occurrence against every earlier one at once, when the
//! syncs that order them are local to each earlier op (`prune.rs` explains
//! why settling lets the pair loops stop).
//!
//! `prune.rs` settles a pipe pair for `o2` when syncs visible from every
//! remaining `o1` order it. In real kernels they rarely are: an op's work
//! usually reaches the outside through a sync next to it (a vector op's
//! result is handed to MTE3 by a set/wait in its own loop body), which an
//! op in another loop does not see. So each op gets its *exits*: the
//! earliest time each pipe is known to follow it through the syncs of its
//! own scope. Each `o2` gets *thresholds*: the latest time each pipe may
//! finish and still be ordered before `o2` through the syncs of `o2`'s
//! scopes. Every remaining op is ordered when one pipe (or the op's own
//! pipe, leaving directly) meets its threshold for all of them, which the
//! component-wise maximum of their exits shows (`Exits::latest` in
//! `prune.rs`).
//!
//! Both halves use fewer syncs than the coverage search would (only some
//! scopes, at most a bounded number of pairs), so they can only fail to
//! prove an order that exists, never prove one that does not: a path
//! through an op's own scope and then through `o2`'s scopes is a path the
//! coverage search (`Solver::needs_sync_in`) finds too, as both kinds of
//! scope are visible from the pair and every time stays inside its window.

use super::pipes::{self, Pipe};
use super::solver::{PairId, Solver};
use super::tree::OccId;

/// Pipes below this are tracked; slot `START` holds the op's own end.
pub const PIPES: usize = 16;
pub const START: usize = PIPES;
pub type Times = [i64; PIPES + 1];

/// Pairs read per scope, at most, on either side.
const MAX_PAIRS: usize = 24;

/// A sync as the coverage search sees it: a set on `src` after `es`, a
/// wait on `dst` before `ee`, or a barrier on all pipes at `es`.
#[derive(Clone, Copy)]
struct Edge {
    src: usize,
    dst: usize,
    es: i64,
    ee: i64,
    all: bool,
}

impl Solver<'_> {
    /// The coverage search's reading of a chosen pair (None where it skips
    /// it, or where a pipe is out of range).
    fn edge(&self, p: PairId) -> Option<Edge> {
        let c = &self.pairs[p];
        if c.could_not_run || (c.inner_backward && c.ids.num > 1) {
            return None;
        }
        let all = c.is_barrier() && c.src == pipes::ALL;
        let (src, dst) = (usize::from(c.src), usize::from(c.dst));
        if !all && (src >= PIPES || dst >= PIPES) {
            return None;
        }
        Some(Edge { src, dst, es: c.start, ee: c.end, all })
    }

    /// Earliest time each pipe follows the `src`-pipe work of op `o`
    /// through syncs of its own scope; `START` is the op's end.
    pub(super) fn exits(&self, o: OccId, src: Pipe) -> Times {
        let t = &self.tree;
        let end = t.occs[o].end;
        let mut arr = [i64::MAX; PIPES + 1];
        arr[START] = end;
        let (Some(scope), true) = (t.occs[o].parent, usize::from(src) < PIPES) else { return arr };
        let mut edges: Vec<Edge> = Vec::new();
        for index in [&self.cover_same, &self.cover_persistent] {
            edges.extend(index.starting_in(scope, end, i64::MAX).take(MAX_PAIRS).filter_map(|p| self.edge(p)));
        }
        edges.sort_by_key(|e| (e.es, e.ee));
        let src = usize::from(src);
        for e in edges {
            if e.all {
                arr[usize::from(pipes::ALL)] = arr[usize::from(pipes::ALL)].min(e.es);
                continue;
            }
            if (e.src == src && end <= e.es) || arr[e.src] <= e.es {
                arr[e.dst] = arr[e.dst].min(e.ee);
            }
        }
        arr
    }

    /// Latest time each pipe may be reached (and, in `START`, `src` may
    /// finish) with the work then ordered before `o2` on `dst`, through the
    /// syncs of `o2`'s scopes, and of the cross-scope pairs every remaining
    /// op sees (those set in `common` or above).
    pub(super) fn thresholds(&self, o2: OccId, common: OccId, src: Pipe, dst: Pipe) -> Times {
        let t = &self.tree;
        let end = t.occs[o2].start;
        let mut b = [i64::MIN; PIPES + 1];
        let (src, dst) = (usize::from(src), usize::from(dst));
        if src >= PIPES || dst >= PIPES {
            return b;
        }
        // Reaching the destination, the scalar pipe or all pipes orders the
        // work (as in the coverage search).
        for q in [dst, usize::from(pipes::S), usize::from(pipes::ALL)] {
            b[q] = end;
        }
        let mut edges: Vec<Edge> = Vec::new();
        let mut cur = t.occs[o2].parent;
        let mut shared = false;
        while let Some(s) = cur {
            shared = shared || t.is_ancestor(s, common);
            for index in [&self.cover_same, &self.cover_persistent] {
                edges.extend(index.starting_before(s, end).take(MAX_PAIRS).filter_map(|p| self.edge(p)));
            }
            if shared {
                let cross =
                    self.cover_cross.starting_before(s, end).take(MAX_PAIRS).filter(|p| {
                        t.is_proper_ancestor(self.pairs[*p].par2.expect("a committed pair has scopes"), o2)
                    });
                edges.extend(cross.filter_map(|p| self.edge(p)));
            }
            cur = t.occs[s].parent;
        }
        edges.retain(|e| e.ee <= end);
        edges.sort_by_key(|e| std::cmp::Reverse((e.es, e.ee)));
        let success = |q: usize| q == dst || q == usize::from(pipes::S) || q == usize::from(pipes::ALL);
        // Latest departure through at least one sync, per pipe.
        let mut leave = [i64::MIN; PIPES];
        for e in edges {
            if e.all {
                for q in 0..PIPES {
                    leave[q] = leave[q].max(e.es);
                    b[q] = b[q].max(e.es);
                }
                continue;
            }
            if e.ee <= b[e.dst] {
                leave[e.src] = leave[e.src].max(e.es);
                if !success(e.src) {
                    b[e.src] = b[e.src].max(e.es);
                }
            }
        }
        b[START] = leave[src];
        b
    }
}
