//! The sync checker: what the hardware's independent pipes would make of
//! the order the twin runs things in.
//!
//! Each pipe executes its instructions in order but independently of the
//! others. An instruction on pipe q is known to come after instruction n of
//! pipe p only through a chain of `set_flag`/`wait_flag` or a barrier:
//! `known[q][p]` is the number of p's instructions that q has seen finish
//! (vector clocks). Accesses to overlapping memory, one of them a write,
//! that are not ordered so are races. A `wait_flag` with no matching
//! `set_flag` hangs; flags still set at the end are reported too.
//!
//! The scalar unit (PIPE_S) is a pipe like the others: `memref.load`,
//! `store`, `copy` and `linalg.fill` outside HIVM ops are its accesses.
//! Being in order, its accesses are kept by byte range (`scalar.rs`).

pub mod blocks;
pub mod cross;
mod scalar;
pub mod unit_flag;

use std::collections::{HashMap, VecDeque};

pub const PIPES: usize = 11;
pub const S: usize = 0;
pub const V: usize = 1;
pub const M: usize = 2;
pub const MTE1: usize = 3;
pub const MTE2: usize = 4;
pub const MTE3: usize = 5;
pub const ALL: usize = 6;
pub const FIX: usize = 10;

/// A pipe's number (`PIPE_S` = 0 ... `PIPE_FIX` = 10), as the dialect
/// numbers them; only real pipes up to PIPE_FIX are tracked.
pub fn pipe_index(name: &str) -> Option<usize> {
    hivm_dialects::hivm::attrs::pipe_number(name).map(|n| n as usize).filter(|n| *n < PIPES)
}

pub fn pipe_name(p: usize) -> &'static str {
    hivm_dialects::hivm::attrs::ENUMS[0].1.get(p).copied().unwrap_or("PIPE_?")
}

/// Where something happened: an op of the kernel (its location, printed by
/// the caller) and, inside an implementation, the intrinsic call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    pub op: Option<hivm_ir::OpId>,
    pub detail: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Race,
    Hang,
    Leftover,
    Macro,
    /// Not an error on its own (a flag set twice before a wait).
    Warning,
}

#[derive(Clone, Debug)]
pub struct Report {
    pub class: Class,
    pub site: Site,
    pub message: String,
    /// The other party (the earlier access of a race, the set of a flag).
    pub other: Option<(Site, String)>,
}

/// One line of the `--trace` timeline: what a pipe did, where.
#[derive(Clone, Debug)]
pub struct TraceLine {
    pub pipe: usize,
    pub site: Site,
    pub text: String,
}

struct Access {
    pipe: usize,
    idx: u64,
    instr: u64,
    start: u64,
    end: u64,
    write: bool,
    site: Site,
}

/// A vector clock: this core's pipes, then (in a mix kernel or a grid of
/// blocks run together) the pipes of every core as this core learnt of
/// them through cross-core flags (`cross.rs`). Merging clocks merges both,
/// so what a `sync_block_wait` brought in travels along the core's own
/// flag chains. Its width is fixed once the core is linked.
type Clock = Vec<u64>;

pub struct SyncChecker {
    count: Clock,
    known: Vec<Clock>,
    /// In a mix kernel: this core's link to the block's other cores.
    cross: Option<cross::Link>,
    /// When blocks run one after another: this block's accesses of the
    /// kernel's arguments, checked against the other blocks' (`blocks.rs`).
    pub blocks: Option<blocks::BlockLog>,
    flags: HashMap<(usize, usize, i64), VecDeque<(Clock, Site)>>,
    /// L0C hand-overs by unit flag (`unit_flag.rs`).
    units: unit_flag::Units,
    accesses: Vec<Access>,
    /// The newest instruction of each pipe with an access in `accesses`
    /// (an upper bound), to skip the scan when all of them are ordered.
    logged: Clock,
    /// PIPE_S's accesses, and the index its current epoch started at (the
    /// instruction after its last `set_flag`).
    scalar: scalar::ScalarLog,
    s_epoch: u64,
    /// How many of its own instructions PIPE_S knows to be complete (from a
    /// flag it waited for, or a barrier): unlike its in-order view of
    /// itself, this passes to everything it dispatches afterwards.
    s_done: u64,
    prune_at: usize,
    instr: u64,
    /// Pipes whose instructions complete in order (S always; V on
    /// register-based targets; M, whose barriers upstream never emits).
    in_order: [bool; PIPES],
    pub reports: Vec<Report>,
    /// Named memory ranges, to say where an access went.
    regions: Vec<(u64, u64, String)>,
    /// What every pipe did, in order, when a timeline was asked for.
    pub timeline: Option<Vec<TraceLine>>,
    seen: std::collections::HashSet<(Option<hivm_ir::OpId>, Option<hivm_ir::OpId>, Class)>,
}

impl SyncChecker {
    pub fn new(regbase: bool) -> SyncChecker {
        let mut in_order = [false; PIPES];
        in_order[S] = true;
        in_order[M] = true;
        in_order[V] = regbase;
        SyncChecker {
            count: vec![0; PIPES],
            known: vec![vec![0; PIPES]; PIPES],
            cross: None,
            blocks: None,
            flags: HashMap::new(),
            accesses: Vec::new(),
            logged: vec![0; PIPES],
            scalar: scalar::ScalarLog::default(),
            units: Default::default(),
            s_epoch: 1,
            s_done: 0,
            prune_at: 1024,
            instr: 0,
            in_order,
            reports: Vec::new(),
            regions: Vec::new(),
            timeline: None,
            seen: Default::default(),
        }
    }

    /// Links this core to the others it runs with: its clocks grow a
    /// column per pipe of every core.
    pub fn link(&mut self, link: cross::Link) {
        let width = PIPES * (1 + link.shared.cores());
        self.count.resize(width, 0);
        self.known.iter_mut().for_each(|k| k.resize(width, 0));
        self.logged.resize(width, 0);
        self.cross = Some(link);
    }

    pub fn cross(&self) -> Option<&cross::Link> {
        self.cross.as_ref()
    }

    pub fn cross_mut(&mut self) -> Option<&mut cross::Link> {
        self.cross.as_mut()
    }

    fn width(&self) -> usize {
        self.count.len()
    }

    /// Names the memory at `[start, start + len)` for reports ("UB", "argument 2").
    pub fn name_region(&mut self, start: u64, len: u64, name: String) {
        self.regions.push((start, len, name));
    }

    /// The name given to the memory at `addr`, if any.
    pub fn region_name(&self, addr: u64) -> Option<&str> {
        self.regions.iter().rev().find(|(s, n, _)| addr >= *s && addr < s + n.max(&1)).map(|(_, _, name)| name.as_str())
    }

    /// `UB[256, 384)` for a byte range, or the raw address when unnamed.
    pub fn describe(&self, start: u64, len: u64) -> String {
        for (s, n, name) in self.regions.iter().rev() {
            if start >= *s && start < s + n.max(&1) {
                let off = start - s;
                return format!("{name}[{off}, {})", off + len);
            }
        }
        format!("{len} bytes at {start:#x}")
    }

    /// Starts an instruction on `pipe`; its accesses follow.
    pub fn issue(&mut self, pipe: usize) -> (usize, u64) {
        self.drop_superseded();
        let p = pipe.min(PIPES - 1);
        // The scalar unit dispatches every instruction in program order, so
        // what it has waited for (a wait_flag on PIPE_S) precedes everything
        // it dispatches afterwards. Of its own earlier instructions only
        // those it knows complete are implied: a scalar store may still be
        // in flight.
        if p != S {
            for q in 0..self.width() {
                let k = if q == S { self.s_done } else { self.known[S][q] };
                self.known[p][q] = self.known[p][q].max(k);
            }
        }
        self.count[p] += 1;
        if self.in_order[p] {
            self.known[p][p] = self.count[p] - 1;
        }
        self.instr += 1;
        (p, self.count[p])
    }

    /// Once an instruction is complete, an earlier access of its pipe
    /// inside one of its ranges, and no more a write than it, can only
    /// conflict where that range does, and is ordered before any pipe that
    /// has the newer one ordered: it goes, so that a loop over the same
    /// buffers keeps the log short. (Not before the instruction is complete:
    /// its own later accesses are not checked against itself.)
    fn drop_superseded(&mut self) {
        let instr = self.instr;
        let n = self.accesses.iter().rev().take_while(|a| a.instr == instr).count();
        if n == 0 || n > 64 {
            return;
        }
        let latest: Vec<(usize, u64, u64, u64, bool)> =
            self.accesses[self.accesses.len() - n..].iter().map(|a| (a.pipe, a.idx, a.start, a.end, a.write)).collect();
        self.accesses.retain(|a| {
            a.instr == instr
                || !latest.iter().any(|&(p, idx, start, end, write)| {
                    a.pipe == p && a.idx <= idx && start <= a.start && a.end <= end && (write || !a.write)
                })
        });
    }

    fn ordered(&self, a: &Access, pipe: usize) -> bool {
        self.known[pipe][a.pipe] >= a.idx
    }

    pub(crate) fn report(&mut self, r: Report) {
        let key = (r.site.op, r.other.as_ref().and_then(|o| o.0.op), r.class);
        // A race or warning in a loop is one report (and memory does not
        // grow with the iterations).
        if matches!(r.class, Class::Race | Class::Warning) && !self.seen.insert(key) {
            return;
        }
        self.reports.push(r);
    }

    /// An access by the instruction last issued on `pipe`.
    fn note(&mut self, pipe: usize, site: &Site, text: impl FnOnce(&Self) -> String) {
        if self.timeline.is_some() {
            let text = text(self);
            if let Some(t) = self.timeline.as_mut() {
                t.push(TraceLine { pipe, site: site.clone(), text });
            }
        }
    }

    pub fn access(&mut self, pipe: usize, start: u64, len: u64, write: bool, site: &Site) {
        self.access_view(pipe, start, len, &[(start, len)], blocks::Kind::of(write), site);
    }

    /// Accesses only other blocks see (the bytes an op touched, where its
    /// pipes saw more; or the scalar unit's, where it runs with barriers
    /// around it).
    pub fn block_accesses(&mut self, pipe: usize, runs: &[(u64, u64)], kind: blocks::Kind, site: &Site) {
        if let Some(log) = self.blocks.as_mut() {
            for &(a, n) in runs {
                log.record(pipe.min(PIPES - 1), a, a + n, kind, site);
            }
        }
    }

    /// An access of a view spanning `[start, start + len)` whose bytes are
    /// `runs` (given when blocks run one by one: they alone go to the
    /// other blocks; this core's pipes are checked on the span).
    pub fn access_view(
        &mut self,
        pipe: usize,
        start: u64,
        len: u64,
        runs: &[(u64, u64)],
        kind: blocks::Kind,
        site: &Site,
    ) {
        self.block_accesses(pipe, runs, kind, site);
        self.check(pipe, start, len, kind, site);
    }

    /// Checks an access against this core's pipes (and the cores it runs
    /// with), and logs it.
    fn check(&mut self, pipe: usize, start: u64, len: u64, kind: blocks::Kind, site: &Site) {
        if len == 0 {
            return;
        }
        let write = kind != blocks::Kind::Read;
        self.note(pipe, site, |c| format!("{} {}", if write { "writes" } else { "reads" }, c.describe(start, len)));
        let (p, idx) = (pipe.min(PIPES - 1), self.count[pipe.min(PIPES - 1)]);
        let end = start + len;
        let cross = self
            .cross
            .as_ref()
            .and_then(|link| link.access(&self.known[p], p, idx, start, end, kind, site, |a, n| self.describe(a, n)));
        if let Some(r) = cross {
            self.report(r);
        }
        let mut found = None;
        if (0..PIPES).any(|q| self.known[p][q] < self.logged[q]) {
            for a in &self.accesses {
                if a.instr == self.instr || a.end <= start || end <= a.start || !(a.write || write) {
                    continue;
                }
                if !self.ordered(a, p) {
                    found = Some((a.site.clone(), a.pipe, a.write));
                    break;
                }
            }
        }
        if found.is_none() && p != S {
            let known = self.known[p][S];
            found = self.scalar.conflict(start, end, write, |e| known >= e).map(|(s, w)| (s, S, w));
        }
        if let Some((other, op, ow)) = found {
            let kind = |w: bool| if w { "write" } else { "read" };
            let same = op == p;
            let message = format!(
                "race: {} {} of {} is not ordered after an earlier {} {}{}",
                pipe_name(p),
                kind(write),
                self.describe(start, len),
                pipe_name(op),
                kind(ow),
                if same {
                    format!(" of the same memory (no pipe_barrier[{}] between them)", pipe_name(p))
                } else {
                    " of the same memory (no set_flag/wait_flag chain orders them)".to_string()
                }
            );
            self.report(Report {
                class: Class::Race,
                site: site.clone(),
                message,
                other: Some((other, "the earlier access".into())),
            });
        }
        if p == S {
            self.scalar.record(start, end, write, self.s_epoch, site);
            return;
        }
        self.logged[p] = self.logged[p].max(idx);
        // Merge with the previous access of the same instruction when adjacent.
        if let Some(last) = self.accesses.last_mut()
            && last.instr == self.instr
            && last.write == write
            && last.end == start
        {
            last.end = end;
            return;
        }
        self.accesses.push(Access { pipe: p, idx, instr: self.instr, start, end, write, site: site.clone() });
        if self.accesses.len() >= self.prune_at {
            self.prune();
        }
    }

    /// Forgets accesses every pipe has seen finish.
    fn prune(&mut self) {
        let known = &self.known;
        self.accesses.retain(|a| (0..PIPES).any(|q| known[q][a.pipe] < a.idx));
        self.prune_at = (self.accesses.len() * 2).max(1024);
        if (0..PIPES).all(|q| known[q][S] >= self.scalar.newest()) {
            self.scalar.clear();
        }
    }

    pub fn set_flag(&mut self, set: usize, wait: usize, event: i64, site: &Site) {
        self.note(set, site, |_| format!("set_flag for {} event {event}", pipe_name(wait)));
        let (p, _) = self.issue(set);
        let mut snap = self.known[p].clone();
        snap[p] = self.count[p];
        if p == S {
            self.scalar_boundary();
        }
        let q = self.flags.entry((set, wait, event)).or_default();
        if !q.is_empty() {
            let earlier = q.back().map(|e| e.1.clone());
            self.report(Report {
                class: Class::Warning,
                site: site.clone(),
                message: format!(
                    "set_flag[{}, {}, {}] sets a flag that is already set and not yet waited for",
                    pipe_name(set),
                    pipe_name(wait),
                    event
                ),
                other: earlier.map(|s| (s, "set here".into())),
            });
        }
        self.flags.entry((set, wait, event)).or_default().push_back((snap, site.clone()));
    }

    pub fn wait_flag(&mut self, set: usize, wait: usize, event: i64, site: &Site) {
        self.note(wait, site, |_| format!("wait_flag for {} event {event}", pipe_name(set)));
        let (q, _) = self.issue(wait);
        match self.flags.get_mut(&(set, wait, event)).and_then(|f| f.pop_front()) {
            Some((snap, _)) => {
                for (k, s) in self.known[q].iter_mut().zip(&snap) {
                    *k = (*k).max(*s);
                }
                if q == S {
                    self.s_done = self.s_done.max(snap[S]);
                }
            }
            None => self.reports.push(Report {
                class: Class::Hang,
                site: site.clone(),
                message: format!(
                    "wait_flag[{}, {}, {}] waits for a flag that nothing has set: this hangs on hardware",
                    pipe_name(set),
                    pipe_name(wait),
                    event
                ),
                other: None,
            }),
        }
    }

    /// A set/wait pair from `set` to `wait` that a library issues back to
    /// back on an event of its own (e.g. `mmadL1`'s MTE1 -> M before each
    /// `mad`): `wait` learns everything `set` has done, without touching
    /// the kernel's flag queues.
    pub fn handshake(&mut self, set: usize, wait: usize, site: &Site) {
        self.note(set, site, |_| format!("library handshake to {}", pipe_name(wait)));
        let (p, _) = self.issue(set);
        let mut snap = self.known[p].clone();
        snap[p] = self.count[p];
        let (q, _) = self.issue(wait);
        for (k, s) in self.known[q].iter_mut().zip(snap) {
            *k = (*k).max(s);
        }
    }

    pub fn barrier(&mut self, pipe: usize, site: &Site) {
        self.note(pipe, site, |_| "pipe_barrier".into());
        if pipe == ALL {
            self.full_barrier();
            return;
        }
        let p = pipe.min(PIPES - 1);
        self.issue(p);
        self.known[p][p] = self.count[p];
        if p == S {
            self.s_done = self.count[S];
            self.scalar_boundary();
        }
    }

    /// Other pipes may now learn how far PIPE_S has come (a `set_flag` or a
    /// barrier on it, whose index can reach them): its later accesses start
    /// a new epoch.
    fn scalar_boundary(&mut self) {
        self.s_epoch = self.count[S] + 1;
    }

    /// Everything issued so far has finished, as seen from every pipe
    /// (`pipe_barrier[PIPE_ALL]`, and calls of functions, which the
    /// compiler synchronises on their own).
    pub fn full_barrier(&mut self) {
        // What any pipe learnt from other cores, every pipe now knows.
        let mut remote = vec![0; self.width()];
        for q in 0..PIPES {
            for (r, k) in remote.iter_mut().zip(&self.known[q]).skip(PIPES) {
                *r = (*r).max(*k);
            }
        }
        for q in 0..PIPES {
            self.known[q][..PIPES].copy_from_slice(&self.count[..PIPES]);
            self.known[q][PIPES..].copy_from_slice(&remote[PIPES..]);
        }
        self.accesses.clear();
        self.logged.iter_mut().for_each(|l| *l = 0);
        self.scalar.clear();
        self.s_done = self.count[S];
        self.scalar_boundary();
    }

    /// Flags set and never waited for, at the end of a block.
    pub fn finish(&mut self) {
        let mut left: Vec<_> = self.flags.drain().filter(|(_, q)| !q.is_empty()).collect();
        left.sort_by_key(|(k, _)| *k);
        for ((set, wait, event), q) in left {
            for (_, site) in q {
                self.reports.push(Report {
                    class: Class::Leftover,
                    site,
                    message: format!(
                        "set_flag[{}, {}, {}] is still set when the kernel ends (no wait_flag consumed it)",
                        pipe_name(set),
                        pipe_name(wait),
                        event
                    ),
                    other: None,
                });
            }
        }
    }

    pub fn errors(&self) -> usize {
        self.reports.iter().filter(|r| r.class != Class::Warning).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Site {
        Site { op: None, detail: None }
    }

    fn write(c: &mut SyncChecker, pipe: usize, at: u64) {
        c.issue(pipe);
        c.access(pipe, at, 32, true, &site());
    }

    fn read(c: &mut SyncChecker, pipe: usize, at: u64) {
        c.issue(pipe);
        c.access(pipe, at, 32, false, &site());
    }

    fn races(c: &SyncChecker) -> usize {
        c.reports.iter().filter(|r| r.class == Class::Race).count()
    }

    #[test]
    fn cross_pipe_needs_a_flag() {
        let mut c = SyncChecker::new(false);
        write(&mut c, MTE2, 0);
        read(&mut c, V, 0);
        assert_eq!(races(&c), 1);

        let mut c = SyncChecker::new(false);
        write(&mut c, MTE2, 0);
        c.set_flag(MTE2, V, 0, &site());
        c.wait_flag(MTE2, V, 0, &site());
        read(&mut c, V, 0);
        assert_eq!(races(&c), 0);
        c.finish();
        assert!(c.reports.is_empty());
    }

    #[test]
    fn a_wait_on_the_scalar_pipe_orders_everything_dispatched_after_it() {
        // V's write reaches S through a flag; the scalar unit then dispatches
        // MTE3's read, which therefore follows the write.
        let mut c = SyncChecker::new(false);
        write(&mut c, V, 0);
        c.set_flag(V, S, 0, &site());
        c.wait_flag(V, S, 0, &site());
        read(&mut c, MTE3, 0);
        assert_eq!(races(&c), 0);
        // A scalar store itself may still be in flight: no implied order.
        let mut c = SyncChecker::new(false);
        write(&mut c, S, 0);
        read(&mut c, MTE3, 0);
        assert_eq!(races(&c), 1);
    }

    #[test]
    fn the_scalar_unit_learning_its_own_store_is_done_passes_it_on() {
        // S's store reaches V through a flag and comes back to S through
        // another: what S dispatches afterwards follows the store.
        let mut c = SyncChecker::new(false);
        write(&mut c, S, 0);
        c.set_flag(S, V, 0, &site());
        c.wait_flag(S, V, 0, &site());
        c.set_flag(V, S, 0, &site());
        c.wait_flag(V, S, 0, &site());
        read(&mut c, MTE3, 0);
        assert_eq!(races(&c), 0);
        // Its in-order view of itself does not: a later store still races.
        write(&mut c, S, 0);
        read(&mut c, S, 0);
        read(&mut c, MTE3, 0);
        assert_eq!(races(&c), 1);
    }

    #[test]
    fn scalar_accesses_between_two_sets_are_told_apart_only_by_the_set() {
        let mut c = SyncChecker::new(false);
        write(&mut c, S, 0);
        c.set_flag(S, V, 0, &site());
        write(&mut c, S, 64);
        c.wait_flag(S, V, 0, &site());
        read(&mut c, V, 0);
        assert_eq!(races(&c), 0);
        read(&mut c, V, 64);
        assert_eq!(races(&c), 1);
    }

    #[test]
    fn ordering_is_transitive_through_chains() {
        // MTE2 -> V -> MTE3 orders MTE2's write before MTE3's read.
        let mut c = SyncChecker::new(false);
        write(&mut c, MTE2, 64);
        c.set_flag(MTE2, V, 0, &site());
        c.wait_flag(MTE2, V, 0, &site());
        c.set_flag(V, MTE3, 1, &site());
        c.wait_flag(V, MTE3, 1, &site());
        read(&mut c, MTE3, 64);
        assert_eq!(races(&c), 0);
    }

    #[test]
    fn a_flag_covers_only_what_came_before_its_set() {
        let mut c = SyncChecker::new(false);
        c.set_flag(MTE2, V, 0, &site());
        write(&mut c, MTE2, 0);
        c.wait_flag(MTE2, V, 0, &site());
        read(&mut c, V, 0);
        assert_eq!(races(&c), 1);
    }

    #[test]
    fn same_pipe_rules() {
        // V on a memory-based chip needs a barrier between dependent ops.
        let mut c = SyncChecker::new(false);
        write(&mut c, V, 0);
        read(&mut c, V, 0);
        assert_eq!(races(&c), 1);
        let mut c = SyncChecker::new(false);
        write(&mut c, V, 0);
        c.barrier(V, &site());
        read(&mut c, V, 0);
        assert_eq!(races(&c), 0);
        // ...but not on a register-based one, nor ever on S or M.
        for (pipe, regbase) in [(V, true), (S, false), (M, false)] {
            let mut c = SyncChecker::new(regbase);
            write(&mut c, pipe, 0);
            read(&mut c, pipe, 0);
            assert_eq!(races(&c), 0, "pipe {pipe}");
        }
    }

    #[test]
    fn reads_do_not_conflict_and_disjoint_ranges_do_not_either() {
        let mut c = SyncChecker::new(false);
        read(&mut c, MTE2, 0);
        read(&mut c, V, 0);
        write(&mut c, MTE3, 32);
        assert_eq!(races(&c), 0);
        write(&mut c, V, 16);
        assert_eq!(races(&c), 1);
    }

    #[test]
    fn barrier_all_orders_everything() {
        let mut c = SyncChecker::new(false);
        write(&mut c, MTE2, 0);
        write(&mut c, V, 32);
        c.barrier(ALL, &site());
        read(&mut c, MTE3, 0);
        write(&mut c, S, 32);
        assert_eq!(races(&c), 0);
    }

    #[test]
    fn flags_are_consumed_in_order_and_leftovers_reported() {
        let mut c = SyncChecker::new(false);
        c.wait_flag(V, MTE3, 2, &site());
        assert_eq!(c.reports.last().map(|r| r.class), Some(Class::Hang));
        c.set_flag(V, MTE3, 3, &site());
        c.set_flag(V, MTE3, 3, &site());
        assert_eq!(c.reports.last().map(|r| r.class), Some(Class::Warning));
        c.wait_flag(V, MTE3, 3, &site());
        c.finish();
        let left: Vec<_> = c.reports.iter().filter(|r| r.class == Class::Leftover).collect();
        assert_eq!(left.len(), 1);
        assert!(left[0].message.contains("set_flag[PIPE_V, PIPE_MTE3, 3]"));
        assert_eq!(c.errors(), 2);
    }

    #[test]
    fn pipe_names_round_trip() {
        for p in 0..PIPES {
            assert_eq!(pipe_index(pipe_name(p)), Some(p));
        }
        assert_eq!(pipe_index("PIPE_UNASSIGNED"), None);
        for (p, name) in [(S, "PIPE_S"), (V, "PIPE_V"), (M, "PIPE_M"), (MTE1, "PIPE_MTE1"), (MTE2, "PIPE_MTE2")] {
            assert_eq!(pipe_name(p), name);
        }
        for (p, name) in [(MTE3, "PIPE_MTE3"), (ALL, "PIPE_ALL"), (FIX, "PIPE_FIX")] {
            assert_eq!(pipe_name(p), name);
        }
    }
}
