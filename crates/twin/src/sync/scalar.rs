//! The scalar unit's accesses, kept by byte range rather than by
//! instruction.
//!
//! PIPE_S runs in program order, so for another pipe only the *last* scalar
//! read and the last scalar write of a byte matter: if those are ordered
//! before it, every earlier one is too. And only a `set_flag` on PIPE_S
//! tells another pipe how far the scalar unit has come, so the scalar
//! instructions between two such sets (an *epoch*) are indistinguishable to
//! every other pipe: each access is stamped with the index of its epoch's
//! first instruction. A scalar loop over a buffer therefore leaves one range
//! per epoch and op, not one entry per element.

use std::collections::BTreeMap;

use super::Site;

/// A scalar access as later pipes see it: its epoch's first instruction
/// index and where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub epoch: u64,
    pub site: Site,
}

#[derive(Clone, Debug, PartialEq)]
struct Seg {
    end: u64,
    write: Option<Mark>,
    read: Option<Mark>,
}

impl Seg {
    fn field(&mut self, write: bool) -> &mut Option<Mark> {
        if write { &mut self.write } else { &mut self.read }
    }
}

/// Disjoint byte ranges, each with the last scalar write and read of its
/// bytes; ranges with equal marks next to each other are merged.
#[derive(Default)]
pub struct ScalarLog {
    segs: BTreeMap<u64, Seg>,
    /// The newest epoch recorded (so "everything is ordered" is one test).
    newest: u64,
}

impl ScalarLog {
    pub fn clear(&mut self) {
        self.segs.clear();
        self.newest = 0;
    }

    pub fn newest(&self) -> u64 {
        self.newest
    }

    /// The first scalar access to `[start, end)` that `ordered` (a test of an
    /// epoch) does not put before an access of the other kind: any write, and
    /// reads too when the new access writes. Returns its site and whether it
    /// wrote.
    pub fn conflict(&self, start: u64, end: u64, write: bool, ordered: impl Fn(u64) -> bool) -> Option<(Site, bool)> {
        if self.segs.is_empty() || ordered(self.newest) {
            return None;
        }
        for (_, seg) in self.segs.range(..end).rev() {
            if seg.end <= start {
                break;
            }
            if let Some(m) = &seg.write
                && !ordered(m.epoch)
            {
                return Some((m.site.clone(), true));
            }
            if write
                && let Some(m) = &seg.read
                && !ordered(m.epoch)
            {
                return Some((m.site.clone(), false));
            }
        }
        None
    }

    /// Records a scalar read or write of `[start, end)`.
    pub fn record(&mut self, start: u64, end: u64, write: bool, mark: Mark) {
        if start >= end {
            return;
        }
        self.newest = self.newest.max(mark.epoch);
        // The common cases of a scalar loop: the same cell again, or the cell
        // right after the range this op has been extending.
        if let Some((&k, seg)) = self.segs.range_mut(..=start).next_back() {
            if seg.end >= end && seg.field(write).as_ref() == Some(&mark) {
                return;
            }
            let other_empty = if write { seg.read.is_none() } else { seg.write.is_none() };
            if seg.end == start && other_empty && seg.field(write).as_ref() == Some(&mark) {
                let next_free = self.segs.range(start..).next().is_none_or(|(n, _)| *n >= end);
                if next_free {
                    self.segs.get_mut(&k).expect("just found").end = end;
                    self.merge(k, end);
                    return;
                }
            }
        }
        self.split_at(start);
        self.split_at(end);
        let inside: Vec<u64> = self.segs.range(start..end).map(|(k, _)| *k).collect();
        let mut pos = start;
        for k in inside {
            if k > pos {
                self.segs.insert(pos, Seg::new(k, write, &mark));
            }
            let seg = self.segs.get_mut(&k).expect("collected");
            *seg.field(write) = Some(mark.clone());
            pos = seg.end;
        }
        if pos < end {
            self.segs.insert(pos, Seg::new(end, write, &mark));
        }
        let first = self.segs.range(..start).next_back().filter(|(_, s)| s.end == start).map_or(start, |(k, _)| *k);
        self.merge(first, end);
    }

    /// Splits the range containing `at` in its interior into two.
    fn split_at(&mut self, at: u64) {
        if let Some((_, seg)) = self.segs.range_mut(..at).next_back()
            && seg.end > at
        {
            let tail = seg.clone();
            seg.end = at;
            self.segs.insert(at, tail);
        }
    }

    /// Merges equal touching ranges whose common boundary lies between the
    /// start of the range at `k` and `until`.
    fn merge(&mut self, mut k: u64, until: u64) {
        while let Some(seg) = self.segs.get(&k) {
            let b = seg.end;
            if b > until {
                return;
            }
            match self.segs.get(&b) {
                Some(next) if next.write == seg.write && next.read == seg.read => {
                    let next_end = next.end;
                    self.segs.remove(&b);
                    self.segs.get_mut(&k).expect("present").end = next_end;
                }
                Some(_) => k = b,
                None => return,
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.segs.len()
    }
}

impl Seg {
    fn new(end: u64, write: bool, mark: &Mark) -> Seg {
        let mut s = Seg { end, write: None, read: None };
        *s.field(write) = Some(mark.clone());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(epoch: u64, op: usize) -> Mark {
        Mark { epoch, site: Site { op: None, detail: Some(format!("op {op}")) } }
    }

    #[test]
    fn a_loop_over_a_buffer_leaves_one_range() {
        let mut l = ScalarLog::default();
        for i in 0..1000u64 {
            l.record(4 * i, 4 * i + 4, true, mark(1, 7));
            l.record(8000 + 4 * i, 8000 + 4 * i + 4, false, mark(1, 8));
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
        l.record(0, 64, true, mark(1, 1));
        // A later epoch writes the middle: only it is unordered for a pipe
        // that has seen epoch 1 but not 5.
        l.record(16, 32, true, mark(5, 2));
        let seen_1 = |e: u64| e <= 1;
        assert!(l.conflict(0, 16, false, seen_1).is_none());
        assert!(l.conflict(32, 64, false, seen_1).is_none());
        let c = l.conflict(8, 20, false, seen_1).expect("the middle write");
        assert_eq!(c.0.detail.as_deref(), Some("op 2"));
        assert_eq!(l.len(), 3);
        // Writing it all again in epoch 5 merges everything back.
        l.record(0, 64, true, mark(5, 2));
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn reads_and_writes_of_one_byte_are_kept_apart() {
        let mut l = ScalarLog::default();
        l.record(0, 4, true, mark(1, 1));
        l.record(0, 4, false, mark(3, 2));
        // A later writer that has seen epoch 1 but not 3 races with the read.
        assert_eq!(l.conflict(0, 4, true, |e| e <= 1).map(|c| c.1), Some(false));
        assert!(l.conflict(0, 4, false, |e| e <= 1).is_none());
        l.clear();
        assert!(l.conflict(0, 4, true, |_| false).is_none());
    }
}
