//! Chosen pairs by scope, ordered by where their set sits, so that the
//! coverage search reads only the pairs that start inside its window
//! instead of every pair of every scope around the two occurrences (which
//! made the search linear in the size of the function, per query).
//!
//! A pair that starts before the window cannot order anything in it: the
//! search leaves `o1` at the window's start, and a set issued before that
//! does not wait for `o1`. Barriers start and end at one point.

use std::collections::{BTreeSet, HashMap};

use super::solver::PairId;
use super::tree::OccId;

#[derive(Default)]
pub struct CoverIndex {
    by_scope: HashMap<OccId, BTreeSet<(i64, PairId)>>,
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

    /// Pairs of `scope` whose start lies in `lo..=hi`, by start.
    pub fn starting_in(&self, scope: OccId, lo: i64, hi: i64) -> impl Iterator<Item = PairId> + '_ {
        self.by_scope.get(&scope).into_iter().flat_map(move |s| s.range((lo, 0)..=(hi, PairId::MAX)).map(|(_, p)| *p))
    }
}
