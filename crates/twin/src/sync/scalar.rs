//! The scalar unit's accesses, kept by byte range rather than by
//! instruction.
//!
//! PIPE_S runs in program order, so for another pipe only the *last* scalar
//! read and the last scalar write of a byte matter: if those are ordered
//! before it, every earlier one is too. And only a `set_flag` on PIPE_S (or
//! a barrier) tells another pipe how far the scalar unit has come, so the
//! scalar instructions between two such points (an *epoch*) are
//! indistinguishable to every other pipe: each access is stamped with the
//! index of its epoch's first instruction. A scalar loop over a buffer
//! therefore leaves one range per epoch and op, not one entry per element.

use std::collections::{BTreeMap, HashMap};

use super::Site;

/// A scalar access as later pipes see it: its epoch's first instruction
/// index and where it happened (an index into the log's sites).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mark {
    epoch: u64,
    site: u32,
}

/// Disjoint byte ranges `start -> (end, mark)`, each with the last access of
/// its bytes; touching ranges with equal marks are merged.
#[derive(Default)]
struct Ranges(BTreeMap<u64, (u64, Mark)>);

impl Ranges {
    /// Whether a range overlapping `[start, end)` has a mark `unordered`
    /// accepts, and the first such mark.
    fn find(&self, start: u64, end: u64, unordered: impl Fn(&Mark) -> bool) -> Option<Mark> {
        for (_, (e, m)) in self.0.range(..end).rev() {
            if *e <= start {
                break;
            }
            if unordered(m) {
                return Some(*m);
            }
        }
        None
    }

    fn set(&mut self, start: u64, end: u64, mark: Mark) {
        // The last range starting before `end`: the only one that can cover
        // [start, end), and when it ends by `start`, nothing overlaps.
        match self.0.range_mut(..end).next_back() {
            Some((&k, (e, m))) if *e > start => {
                if k <= start && *e >= end && *m == mark {
                    return;
                }
            }
            Some((&k, (e, m))) => {
                // The common case of a scalar loop: the cell after the range
                // this op has been extending.
                if *e == start && *m == mark {
                    *e = end;
                    self.absorb_next(k);
                } else {
                    self.0.insert(start, (end, mark));
                    self.absorb_next(start);
                }
                return;
            }
            None => {
                self.0.insert(start, (end, mark));
                self.absorb_next(start);
                return;
            }
        }
        // Overlaps: cut the ranges at both ends, drop what lies inside,
        // then one range for [start, end).
        self.split_at(start);
        self.split_at(end);
        let inside: Vec<u64> = self.0.range(start..end).map(|(k, _)| *k).collect();
        for k in inside {
            self.0.remove(&k);
        }
        self.0.insert(start, (end, mark));
        self.absorb_next(start);
        if let Some((&k, (e, m))) = self.0.range(..start).next_back()
            && *e == start
            && *m == mark
        {
            self.0.remove(&start);
            self.0.get_mut(&k).expect("just found").0 = end;
        }
    }

    /// Splits the range containing `at` in its interior into two.
    fn split_at(&mut self, at: u64) {
        if let Some((_, r)) = self.0.range_mut(..at).next_back()
            && r.0 > at
        {
            let tail = *r;
            r.0 = at;
            self.0.insert(at, tail);
        }
    }

    /// Merges the range at `k` with the one right after it when equal.
    fn absorb_next(&mut self, k: u64) {
        let (end, mark) = self.0[&k];
        if let Some(&(e, m)) = self.0.get(&end)
            && m == mark
        {
            self.0.remove(&end);
            self.0.get_mut(&k).expect("present").0 = e;
        }
    }
}

/// The last scalar write and the last scalar read of every byte.
#[derive(Default)]
pub struct ScalarLog {
    writes: Ranges,
    reads: Ranges,
    /// The newest epoch recorded (so "everything is ordered" is one test).
    newest: u64,
    sites: Vec<Site>,
    site_ids: HashMap<Site, u32>,
    /// The last few sites looked up (a loop's loads and stores alternate).
    recent: [u32; 4],
}

impl ScalarLog {
    pub fn clear(&mut self) {
        self.writes.0.clear();
        self.reads.0.clear();
        self.newest = 0;
    }

    pub fn newest(&self) -> u64 {
        self.newest
    }

    fn site_id(&mut self, site: &Site) -> u32 {
        if let Some(id) = self.recent.iter().find(|i| self.sites.get(**i as usize) == Some(site)) {
            return *id;
        }
        let id = match self.site_ids.get(site) {
            Some(id) => *id,
            None => {
                self.sites.push(site.clone());
                let id = self.sites.len() as u32 - 1;
                self.site_ids.insert(site.clone(), id);
                id
            }
        };
        self.recent.rotate_right(1);
        self.recent[0] = id;
        id
    }

    /// The first scalar access to `[start, end)` that `ordered` (a test of an
    /// epoch) does not put before a new access: any write, and reads too
    /// when the new access writes. Returns its site and whether it wrote.
    pub fn conflict(&self, start: u64, end: u64, write: bool, ordered: impl Fn(u64) -> bool) -> Option<(Site, bool)> {
        if ordered(self.newest) {
            return None;
        }
        let unordered = |m: &Mark| !ordered(m.epoch);
        let found = match self.writes.find(start, end, unordered) {
            Some(m) => Some((m, true)),
            None if write => self.reads.find(start, end, unordered).map(|m| (m, false)),
            None => None,
        };
        found.map(|(m, w)| (self.sites[m.site as usize].clone(), w))
    }

    /// Records a scalar read or write of `[start, end)` in the epoch that
    /// began at instruction `epoch`.
    pub fn record(&mut self, start: u64, end: u64, write: bool, epoch: u64, site: &Site) {
        if start >= end {
            return;
        }
        self.newest = self.newest.max(epoch);
        let mark = Mark { epoch, site: self.site_id(site) };
        if write { &mut self.writes } else { &mut self.reads }.set(start, end, mark);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.writes.0.len() + self.reads.0.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(op: usize) -> Site {
        Site { op: None, detail: Some(format!("op {op}")) }
    }

    #[test]
    fn a_loop_over_a_buffer_leaves_one_range() {
        let mut l = ScalarLog::default();
        for i in 0..1000u64 {
            l.record(4 * i, 4 * i + 4, true, 1, &site(7));
            l.record(8000 + 4 * i, 8000 + 4 * i + 4, false, 1, &site(8));
        }
        assert_eq!(l.len(), 2);
        // A pipe that has seen epoch 1 finish is ordered after all of it.
        assert!(l.conflict(100, 104, false, |e| e <= 1).is_none());
        assert!(l.conflict(100, 104, false, |_| false).is_some());
        // A read by another pipe conflicts only with writes.
        assert!(l.conflict(8000, 8004, false, |_| false).is_none());
        assert_eq!(l.conflict(8000, 8004, true, |_| false).map(|c| c.1), Some(false));
    }

    #[test]
    fn the_last_access_of_each_byte_counts() {
        let mut l = ScalarLog::default();
        l.record(0, 64, true, 1, &site(1));
        // A later epoch writes the middle: only it is unordered for a pipe
        // that has seen epoch 1 but not 5.
        l.record(16, 32, true, 5, &site(2));
        let seen_1 = |e: u64| e <= 1;
        assert!(l.conflict(0, 16, false, seen_1).is_none());
        assert!(l.conflict(32, 64, false, seen_1).is_none());
        let c = l.conflict(8, 20, false, seen_1).expect("the middle write");
        assert_eq!(c.0.detail.as_deref(), Some("op 2"));
        assert_eq!(l.len(), 3);
        // Writing it all again in epoch 5 merges everything back.
        l.record(0, 64, true, 5, &site(2));
        assert_eq!(l.len(), 1);
        // And so does a range that fills a gap between two equal ones.
        l.record(100, 104, true, 5, &site(2));
        l.record(96, 100, false, 5, &site(2));
        assert_eq!(l.len(), 3);
        l.record(64, 100, true, 5, &site(2));
        assert_eq!(l.len(), 2);
    }

    #[test]
    fn reads_and_writes_of_one_byte_are_kept_apart() {
        let mut l = ScalarLog::default();
        l.record(0, 4, true, 1, &site(1));
        l.record(0, 4, false, 3, &site(2));
        // A later writer that has seen epoch 1 but not 3 races with the read.
        assert_eq!(l.conflict(0, 4, true, |e| e <= 1).map(|c| c.1), Some(false));
        assert!(l.conflict(0, 4, false, |e| e <= 1).is_none());
        l.clear();
        assert!(l.conflict(0, 4, true, |_| false).is_none());
    }
}
