//! Global memory across blocks that run one after another.
//!
//! On the NPU a kernel's blocks run at once, in any order, on different
//! cores; nothing orders one block's accesses before another's but
//! INTER_BLOCK flags (a kernel with those runs all its blocks together,
//! `cross.rs`) and atomics. So when blocks run one by one, any byte of the
//! kernel's arguments that one block writes and another reads, or writes
//! with other bytes, is a race, however the twin happened to order them:
//! its output would depend on the blocks' order. Each block's accesses are kept as byte
//! ranges per op (a loop over a buffer is one range), and checked once the
//! block ends against those of the blocks before it.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Class, Report, Site, pipe_name};

/// How an access touches memory. Atomic read-modify-writes of one
/// operation (its code: add, max, ...) do not conflict with each other:
/// their result is the same in any order. Of different operations, it is
/// not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Read,
    Write,
    Atomic(u8),
}

impl Kind {
    /// A plain read or write.
    pub fn of(write: bool) -> Kind {
        if write { Kind::Write } else { Kind::Read }
    }

    pub fn conflicts(self, other: Kind) -> bool {
        match (self, other) {
            (Kind::Read, Kind::Read) => false,
            // u8::MAX: an update that does not commute with itself (an
            // exchange).
            (Kind::Atomic(a), Kind::Atomic(b)) => a != b || a == u8::MAX,
            _ => true,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Write => "write",
            Kind::Atomic(_) => "atomic update",
        }
    }
}

/// Where a block is in its lock's token ring (`interp/block_lock.rs`):
/// what it did before its unlock precedes what later blocks do after their
/// locks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    #[default]
    Before,
    Locked,
    Unlocked,
}

/// Disjoint byte ranges `start -> end`; touching ones are merged.
#[derive(Default, Clone)]
struct Union(BTreeMap<u64, u64>);

impl Union {
    fn insert(&mut self, mut start: u64, mut end: u64) {
        // Ranges that overlap or touch [start, end) are merged into it.
        while let Some((&s, &e)) = self.0.range(..=end).next_back() {
            if e < start {
                break;
            }
            self.0.remove(&s);
            start = start.min(s);
            end = end.max(e);
        }
        self.0.insert(start, end);
    }

    /// The first part of `[start, end)` this union covers.
    fn overlap(&self, start: u64, end: u64) -> Option<(u64, u64)> {
        let mut found = None;
        for (&s, &e) in self.0.range(..end).rev() {
            if e <= start {
                break;
            }
            found = Some((s.max(start), e.min(end)));
        }
        found
    }

    fn ranges(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.0.iter().map(|(s, e)| (*s, *e))
    }
}

/// One block's accesses of global memory every block sees, per op and
/// lock phase.
#[derive(Default)]
pub struct BlockLog {
    gm: Vec<(u64, u64)>,
    by_op: HashMap<(Site, usize, Kind, Phase), Union>,
    phase: Phase,
    /// Whether it took its lock, and whether the token came from the block
    /// before's unlock.
    acquired: bool,
    linked: bool,
}

impl BlockLog {
    /// A log of accesses inside `gm` (the kernel's arguments).
    pub fn new(gm: Vec<(u64, u64)>) -> BlockLog {
        BlockLog { gm, by_op: HashMap::new(), phase: Phase::Before, acquired: false, linked: false }
    }

    /// It took its lock; `linked`: from the block before's unlock.
    pub fn set_linked(&mut self, linked: bool) {
        self.acquired = true;
        self.linked = linked;
    }

    pub fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    pub(super) fn record(&mut self, pipe: usize, start: u64, end: u64, kind: Kind, site: &Site) {
        for &(s, n) in &self.gm {
            let (lo, hi) = (start.max(s), end.min(s + n));
            if lo < hi {
                self.by_op.entry((site.clone(), pipe, kind, self.phase)).or_default().insert(lo, hi);
            }
        }
    }

    /// Adds another core's accesses (a mix kernel's block has three).
    pub fn merge(&mut self, other: BlockLog) {
        for (k, u) in other.by_op {
            let mine = self.by_op.entry(k).or_default();
            for (s, e) in u.ranges() {
                mine.insert(s, e);
            }
        }
    }
}

/// One op's accesses in an earlier block.
struct Earlier {
    block: u32,
    site: Site,
    pipe: usize,
    kind: Kind,
    phase: Phase,
    ranges: Union,
    /// For a write: the bytes of each range, from its first byte.
    bytes: Vec<(u64, Vec<u8>)>,
}

impl Earlier {
    /// The bytes it wrote at `[start, end)`, which it covers.
    fn wrote(&self, start: u64, end: u64) -> Option<&[u8]> {
        let (s, b) = self.bytes.iter().rev().find(|(s, b)| *s <= start && end <= s + b.len() as u64)?;
        Some(&b[(start - s) as usize..(end - s) as usize])
    }
}

/// The kernel's argument memory as the blocks left it: `(address, bytes)`.
pub type Memory<'a> = &'a [(u64, &'a [u8])];

fn read(mem: Memory, start: u64, end: u64) -> Option<Vec<u8>> {
    let (a, b) = mem.iter().find(|(a, b)| *a <= start && end <= a + b.len() as u64)?;
    Some(b[(start - a) as usize..(end - a) as usize].to_vec())
}

/// The accesses of the blocks run so far.
pub struct AcrossBlocks {
    named: Vec<(u64, u64, String)>,
    /// Every earlier block's accesses, to name the other party of a race,
    /// with the bytes its writes left (at its end).
    earlier: Vec<Earlier>,
    /// What the earlier blocks read, wrote and updated atomically, and of
    /// that what they did after their unlock.
    touched: [Union; 3],
    after_unlock: [Union; 3],
    seen: HashSet<(Site, Site)>,
    /// Hashes of the entries in `earlier`.
    kept: HashSet<u64>,
}

fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Read => 0,
        Kind::Write => 1,
        Kind::Atomic(_) => 2,
    }
}

impl AcrossBlocks {
    /// `named`: the kernel's arguments' memory and names, for reports.
    pub fn new(named: Vec<(u64, u64, String)>) -> AcrossBlocks {
        AcrossBlocks {
            named,
            earlier: Vec::new(),
            touched: Default::default(),
            after_unlock: Default::default(),
            seen: HashSet::new(),
            kept: HashSet::new(),
        }
    }

    fn describe(&self, start: u64, end: u64) -> String {
        match self.named.iter().find(|(s, n, _)| start >= *s && start < s + n) {
            Some((s, _, name)) => format!("{name}[{}, {})", start - s, end - s),
            None => format!("{} bytes at {start:#x}", end - start),
        }
    }

    /// Block `block` ended with `log` and left the arguments as `mem`: its
    /// races with the blocks before it. Two blocks writing the same bytes
    /// leave them so in either order: no race.
    pub fn end_block(&mut self, block: u32, log: BlockLog, mem: Memory) -> Vec<Report> {
        let mut reports = Vec::new();
        // A lock whose token did not come from the block before (the ring
        // started at it) orders it after none of the earlier blocks.
        if log.acquired && !log.linked {
            self.after_unlock = self.touched.clone();
            self.earlier.iter_mut().for_each(|e| e.phase = Phase::Unlocked);
        }
        // In a stable order, so that reports are too.
        let mut entries: Vec<((Site, usize, Kind, Phase), Union)> = log.by_op.into_iter().collect();
        entries.sort_by_key(|((site, pipe, kind, phase), u)| {
            (site.op, site.detail.clone(), *pipe, slot(*kind), *phase, u.0.keys().next().copied())
        });
        for ((site, pipe, kind, phase), u) in &entries {
            // After its lock, a block follows what earlier blocks did before
            // their unlocks.
            let locked = *phase != Phase::Before;
            let earlier = if locked { &self.after_unlock } else { &self.touched };
            for (s, e) in u.ranges() {
                // Atomics of every operation share a union: a same-operation
                // overlap is told apart below.
                let hit = [Kind::Read, Kind::Write, Kind::Atomic(u8::MAX)]
                    .into_iter()
                    .filter(|k| matches!(k, Kind::Atomic(_)) && *kind != Kind::Read || kind.conflicts(*k))
                    .any(|k| earlier[slot(k)].overlap(s, e).is_some());
                if !hit {
                    continue;
                }
                let partner = self.earlier.iter().find_map(|o| {
                    if !kind.conflicts(o.kind) || (locked && o.phase != Phase::Unlocked) {
                        return None;
                    }
                    let (lo, hi) = o.ranges.overlap(s, e)?;
                    if *kind == Kind::Write && o.kind == Kind::Write {
                        let same = o.wrote(lo, hi).zip(read(mem, lo, hi)).is_some_and(|(a, b)| a == b.as_slice());
                        if same {
                            return None;
                        }
                    }
                    Some((o, (lo, hi)))
                });
                let Some((o, (lo, hi))) = partner else { continue };
                if !self.seen.insert((site.clone(), o.site.clone())) {
                    continue;
                }
                reports.push(Report {
                    class: Class::Race,
                    site: site.clone(),
                    message: format!(
                        "race across blocks: {} {} of {} in block {block} and block {}'s {} {} of the same memory \
                         are not ordered (blocks run at once, in any order; only INTER_BLOCK \
                         sync_block_set/sync_block_wait or a sync_block_lock ring orders them)",
                        pipe_name(*pipe),
                        kind.name(),
                        self.describe(lo, hi),
                        o.block,
                        pipe_name(o.pipe),
                        o.kind.name(),
                    ),
                    other: Some((o.site.clone(), format!("the {} in block {}", o.kind.name(), o.block))),
                });
            }
        }
        for ((site, pipe, kind, phase), u) in entries {
            let mut bytes = Vec::new();
            for (s, e) in u.ranges() {
                self.touched[slot(kind)].insert(s, e);
                if phase == Phase::Unlocked {
                    self.after_unlock[slot(kind)].insert(s, e);
                }
                if kind == Kind::Write
                    && let Some(b) = read(mem, s, e)
                {
                    bytes.push((s, b));
                }
            }
            // Blocks doing the same (reading one input, writing the same
            // bytes) keep one entry: the first block names them all.
            let key = {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (&site, pipe, kind, phase, &bytes).hash(&mut h);
                u.ranges().for_each(|r| r.hash(&mut h));
                h.finish()
            };
            if self.kept.insert(key) {
                self.earlier.push(Earlier { block, site, pipe, kind, phase, ranges: u, bytes });
            }
        }
        reports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(op: usize) -> Site {
        Site { op: None, detail: Some(format!("op {op}")) }
    }

    fn log(accesses: &[(u64, u64, Kind, usize)]) -> BlockLog {
        let mut l = BlockLog::new(vec![(1000, 1000)]);
        for &(s, e, k, op) in accesses {
            l.record(4, s, e, k, &site(op));
        }
        l
    }

    impl AcrossBlocks {
        /// Each block writes different bytes.
        fn end_block_in_test(&mut self, block: u32, log: BlockLog) -> Vec<Report> {
            let bytes = vec![block as u8; 1000];
            self.end_block(block, log, &[(1000, &bytes)])
        }
    }

    #[test]
    fn blocks_writing_the_same_bytes_do_not_race() {
        let mut a = AcrossBlocks::new(vec![(1000, 1000, "argument 0".into())]);
        let same = vec![7u8; 1000];
        assert!(a.end_block(0, log(&[(1000, 1064, Kind::Write, 1)]), &[(1000, &same)]).is_empty());
        assert!(a.end_block(1, log(&[(1000, 1064, Kind::Write, 1)]), &[(1000, &same)]).is_empty());
        let other = vec![8u8; 1000];
        assert_eq!(a.end_block(2, log(&[(1000, 1064, Kind::Write, 1)]), &[(1000, &other)]).len(), 1);
        // A read of another block's write still races, whatever it read.
        assert_eq!(a.end_block(3, log(&[(1000, 1004, Kind::Read, 2)]), &[(1000, &other)]).len(), 1);
    }

    #[test]
    fn a_lock_orders_what_came_before_an_unlock_before_what_comes_after_a_lock() {
        let mut a = AcrossBlocks::new(vec![(1000, 1000, "argument 0".into())]);
        let phased = |accesses: &[(Kind, Phase)]| {
            let mut l = BlockLog::new(vec![(1000, 1000)]);
            for (i, &(k, p)) in accesses.iter().enumerate() {
                l.set_phase(p);
                l.record(4, 1000, 1064, k, &site(i));
            }
            l
        };
        // Read-modify-write inside the section, in every block: ordered.
        let section = [(Kind::Read, Phase::Locked), (Kind::Write, Phase::Locked)];
        assert!(a.end_block_in_test(0, phased(&section)).is_empty());
        assert!(a.end_block_in_test(1, phased(&section)).is_empty());
        // Before its lock a block follows nothing.
        assert_eq!(a.end_block_in_test(2, phased(&[(Kind::Read, Phase::Before)])).len(), 1);
        // After an unlock, a later block's section is not ordered after it.
        let mut a = AcrossBlocks::new(vec![(1000, 1000, "argument 0".into())]);
        assert!(a.end_block_in_test(0, phased(&[(Kind::Write, Phase::Unlocked)])).is_empty());
        assert_eq!(a.end_block_in_test(1, phased(&[(Kind::Read, Phase::Locked)])).len(), 1);
    }

    #[test]
    fn unions_merge_touching_ranges_and_find_overlaps() {
        let mut u = Union::default();
        u.insert(10, 20);
        u.insert(30, 40);
        u.insert(20, 30);
        assert_eq!(u.ranges().collect::<Vec<_>>(), vec![(10, 40)]);
        assert_eq!(u.overlap(0, 10), None);
        assert_eq!(u.overlap(35, 50), Some((35, 40)));
        u.insert(50, 60);
        assert_eq!(u.overlap(0, 100), Some((10, 40)));
    }

    #[test]
    fn disjoint_blocks_and_shared_reads_are_no_race() {
        let mut a = AcrossBlocks::new(vec![(1000, 1000, "argument 0".into())]);
        assert!(a.end_block_in_test(0, log(&[(1000, 1064, Kind::Write, 1), (1500, 1600, Kind::Read, 2)])).is_empty());
        assert!(a.end_block_in_test(1, log(&[(1064, 1128, Kind::Write, 1), (1500, 1600, Kind::Read, 2)])).is_empty());
        // Atomic updates of one location by every block are fine.
        assert!(a.end_block_in_test(2, log(&[(1800, 1804, Kind::Atomic(0), 3)])).is_empty());
        assert!(a.end_block_in_test(3, log(&[(1800, 1804, Kind::Atomic(0), 3)])).is_empty());
    }

    #[test]
    fn an_overlap_with_a_write_is_a_race_naming_both_blocks() {
        let mut a = AcrossBlocks::new(vec![(1000, 1000, "argument 0".into())]);
        assert!(a.end_block_in_test(0, log(&[(1000, 1064, Kind::Write, 1)])).is_empty());
        let r = a.end_block_in_test(1, log(&[(1032, 1096, Kind::Write, 1)]));
        assert_eq!(r.len(), 1);
        assert!(r[0].message.contains("write of argument 0[32, 64) in block 1 and block 0's PIPE_MTE2 write"));
        // A read of what another block wrote, and a plain write over an atomic update.
        assert_eq!(a.end_block_in_test(2, log(&[(1000, 1004, Kind::Read, 2)])).len(), 1);
        assert!(a.end_block_in_test(3, log(&[(1800, 1804, Kind::Atomic(0), 3)])).is_empty());
        assert_eq!(a.end_block_in_test(4, log(&[(1800, 1804, Kind::Write, 4)])).len(), 1);
        // Atomic updates of another operation give another result in
        // another order.
        assert_eq!(a.end_block_in_test(5, log(&[(1900, 1904, Kind::Atomic(0), 5)])).len(), 0);
        assert_eq!(a.end_block_in_test(6, log(&[(1900, 1904, Kind::Atomic(2), 6)])).len(), 1);
        // Outside the arguments nothing is logged.
        assert!(a.end_block_in_test(5, log(&[(0, 64, Kind::Write, 1)])).is_empty());
        assert!(a.end_block_in_test(6, log(&[(0, 64, Kind::Write, 1)])).is_empty());
    }
}
