//! Chosen pairs by scope, ordered by where their set sits, so that the
//! coverage search reads only the pairs that start inside its window
//! instead of every pair of every scope around the two occurrences (which
//! made the search linear in the size of the function, per query).
//!
//! A pair that starts before the window cannot order anything in it: the
//! search leaves `o1` at the window's start, and a set issued before that
//! does not wait for `o1`. Barriers start and end at one point.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::solver::PairId;
use super::tree::OccId;

#[derive(Default)]
pub struct CoverIndex {
    by_scope: FxHashMap<OccId, BTreeSet<(i64, PairId)>>,
}

impl CoverIndex {
    pub fn insert(&mut self, scope: OccId, start: i64, id: PairId) {
        self.by_scope.entry(scope).or_default().insert((start, id));
    }

    pub fn remove(&mut self, scope: OccId, start: i64, id: PairId) {
        if let Some(s) = self.by_scope.get_mut(&scope) {
            s.remove(&(start, id));
        }
    }

    pub fn clear(&mut self) {
        self.by_scope.clear();
    }

    /// Pairs of `scope` starting at or before `hi`, latest first.
    pub fn starting_before(&self, scope: OccId, hi: i64) -> impl Iterator<Item = PairId> + '_ {
        self.by_scope.get(&scope).into_iter().flat_map(move |s| s.range(..=(hi, PairId::MAX)).rev().map(|(_, p)| *p))
    }

    /// Pairs of `scope` whose start lies in `lo..=hi`, by start.
    pub fn starting_in(&self, scope: OccId, lo: i64, hi: i64) -> impl Iterator<Item = PairId> + '_ {
        self.by_scope.get(&scope).into_iter().flat_map(move |s| s.range((lo, 0)..=(hi, PairId::MAX)).map(|(_, p)| *p))
    }
}

/// Chosen set/wait pairs of one pipe pair by start, for the colouring's
/// interference query (which pairs overlap a new one in time).
#[derive(Default)]
pub struct SpanIndex {
    by_start: BTreeSet<(i64, PairId)>,
    /// The longest span ever inserted: a pair overlapping `lo..=hi` starts
    /// no earlier than `lo - max_span`.
    max_span: i64,
}

impl SpanIndex {
    pub fn insert(&mut self, start: i64, end: i64, id: PairId) {
        self.max_span = self.max_span.max(end - start);
        self.by_start.insert((start, id));
    }

    pub fn remove(&mut self, start: i64, id: PairId) {
        self.by_start.remove(&(start, id));
    }

    pub fn clear(&mut self) {
        self.by_start.clear();
        self.max_span = 0;
    }

    /// Pairs that may overlap `lo..=hi` (the caller checks their ends).
    pub fn candidates(&self, lo: i64, hi: i64) -> impl Iterator<Item = PairId> + '_ {
        let from = lo.saturating_sub(self.max_span);
        self.by_start.range((from, 0)..=(hi, PairId::MAX)).map(|(_, p)| *p)
    }
}
