//! Cross-core synchronisation in a mix kernel: one cube core and two
//! vector cores per block (910B's ratio), each with its own pipes and
//! checker, meeting only through FFTS flags (`sync_block_set` /
//! `sync_block_wait`) and global memory.
//!
//! Flags: a set on the cube core gives each vector core one count of that
//! flag id; the cube core gets one count once both vector cores have set it
//! (FFTS collects a flag from every sub-block before it passes it on). In
//! INTER_SUBBLOCK mode the vector cores sync with each other: once both
//! have set a flag, each gets one count of it. A
//! count carries the setter's vector clock, so a wait learns what the
//! setting pipe had seen finish, on its own core and (transitively) others.
//!
//! Cores run one at a time (`mix.rs`): a core runs until it waits for a
//! flag nobody has set yet, then the next core that can run does. When none
//! can, the first waiting core hangs: it is reported and let through
//! without learning anything, so that the run goes on to its other faults.
//!
//! Global memory accesses of all cores go to one log; an access that
//! overlaps another core's earlier one, one of them a write, and is not
//! ordered after it through flags, is a race naming both.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use super::{Class, Clock, PIPES, Report, S, Site, SyncChecker, WIDTH, pipe_name};

/// Cores per block: the cube core (0), then vector cores 1 and 2.
pub const CORES: usize = 3;
pub const CUBE: usize = 0;

/// How reports name a core.
pub fn core_name(core: usize) -> String {
    if core == CUBE { "the cube core".into() } else { format!("vector core {}", core - 1) }
}

/// The column of `pipe` of `core` in a clock.
fn col(core: usize, pipe: usize) -> usize {
    PIPES + core * PIPES + pipe
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Not started yet, or waiting for its turn.
    Ready,
    Running,
    /// Waiting for a count of a flag id.
    Blocked(i64),
    Done,
}

type Count = (Clock, Site);

struct CrossAccess {
    core: usize,
    pipe: usize,
    idx: u64,
    start: u64,
    end: u64,
    write: bool,
    site: Site,
}

struct State {
    turn: usize,
    status: [Status; CORES],
    /// A hang was reported for this core's wait: let it through.
    released: [bool; CORES],
    /// Some core failed: the others stop at their next wait.
    abort: bool,
    /// Per receiving core and flag id, the counts not yet waited for.
    counts: [HashMap<i64, VecDeque<Count>>; CORES],
    /// Vector cores' sets of a flag for the cube, until both have set it.
    halves: [HashMap<i64, VecDeque<Count>>; 2],
    /// Vector cores' INTER_SUBBLOCK sets, until both have set the flag.
    sub_halves: [HashMap<i64, VecDeque<Count>>; 2],
    /// Where each blocked core waits, for the hang report.
    waits: [Option<(Site, String)>; CORES],
    log: Vec<CrossAccess>,
    /// Per core, what every one of its pipes has learnt of the others (the
    /// least over its pipes; a finished core knows everything): an access
    /// every other core knows of can never race again.
    floors: [Clock; CORES],
    prune_at: usize,
    reports: Vec<Report>,
    /// GM buffers the kernel allocates, by op and run of it: every core's
    /// n-th run of an allocation gets the same memory.
    gm_bufs: HashMap<(hivm_ir::OpId, u64), Owned>,
}

/// A buffer owned by the block's shared state.
struct Owned(crate::memory::Buffer);

// SAFETY: a buffer is a shared mapping (plain memory) that only the
// running core touches; dropping it from another thread only unmaps it.
unsafe impl Send for Owned {}

/// What the cores of one block share.
pub struct Shared {
    state: Mutex<State>,
    turn: Condvar,
    /// The caller asked the run to stop (Python's Ctrl-C): the running core
    /// stops at its next periodic check, the others at their next wait.
    stop: AtomicBool,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            state: Mutex::new(State {
                turn: CUBE,
                status: [Status::Ready; CORES],
                released: [false; CORES],
                abort: false,
                counts: Default::default(),
                halves: Default::default(),
                sub_halves: Default::default(),
                waits: Default::default(),
                log: Vec::new(),
                floors: [[0; WIDTH]; CORES],
                prune_at: 1024,
                reports: Vec::new(),
                gm_bufs: HashMap::new(),
            }),
            turn: Condvar::new(),
            stop: AtomicBool::new(false),
        }
    }
}

/// The run was stopped because another core failed.
pub struct Aborted;

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the caller asked the run to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Waits until every core has ended, asking `interrupted` now and then
    /// (on the calling thread, where the caller's check belongs); a yes
    /// stops the cores.
    pub fn wait_all(&self, mut interrupted: impl FnMut() -> bool) {
        let mut st = self.lock();
        while st.status.iter().any(|s| *s != Status::Done) {
            st = self.turn.wait_timeout(st, Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
            if !self.stopped() {
                drop(st);
                let stop = interrupted();
                st = self.lock();
                if stop {
                    self.stop.store(true, Ordering::Relaxed);
                    st.abort = true;
                    self.turn.notify_all();
                }
            }
        }
    }

    /// Blocks until it is `core`'s turn (its start).
    pub fn start(&self, core: usize) -> Result<(), Aborted> {
        let mut st = self.lock();
        while st.turn != core && !st.abort {
            st = self.turn.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        if st.abort {
            return Err(Aborted);
        }
        st.status[core] = Status::Running;
        Ok(())
    }

    /// `core` ended (`failed`: with an error, which stops the others).
    pub fn finish(&self, core: usize, failed: bool) {
        let mut st = self.lock();
        st.status[core] = Status::Done;
        st.floors[core] = [u64::MAX; WIDTH];
        st.abort |= failed;
        pass_turn(&mut st, core);
        self.turn.notify_all();
    }

    /// Sets and hang reports that concern no single core, and the leftover
    /// counts, once every core has ended.
    pub fn take_reports(&self) -> Vec<Report> {
        let mut st = self.lock();
        let mut left: Vec<(usize, i64, Site)> = Vec::new();
        for (core, m) in st.counts.iter().enumerate() {
            for (flag, q) in m {
                left.extend(q.iter().map(|(_, s)| (core, *flag, s.clone())));
            }
        }
        for m in &st.halves {
            for (flag, q) in m {
                left.extend(q.iter().map(|(_, s)| (CUBE, *flag, s.clone())));
            }
        }
        left.sort_by_key(|(c, f, s)| (*c, *f, s.op));
        let mut reports = std::mem::take(&mut st.reports);
        for (core, flag, site) in left {
            reports.push(Report {
                class: Class::Leftover,
                site,
                message: format!(
                    "sync_block_set of flag {flag} for {} is still set when the kernel ends \
                     (no sync_block_wait consumed it)",
                    core_name(core)
                ),
                other: None,
            });
        }
        // An INTER_SUBBLOCK set the sibling vector core never matched.
        let mut unmatched: Vec<(usize, i64, Site)> = Vec::new();
        for (k, m) in st.sub_halves.iter().enumerate() {
            for (flag, q) in m {
                unmatched.extend(q.iter().map(|(_, s)| (k, *flag, s.clone())));
            }
        }
        unmatched.sort_by_key(|(k, f, s)| (*k, *f, s.op));
        for (k, flag, site) in unmatched {
            reports.push(Report {
                class: Class::Leftover,
                site,
                message: format!(
                    "vector core {k}'s INTER_SUBBLOCK sync_block_set of flag {flag} is never matched by vector core {}'s \
                     when the kernel ends",
                    1 - k
                ),
                other: None,
            });
        }
        reports
    }

    /// The GM buffer of run `nth` of allocation `op` (`len` bytes), made
    /// by the first core to get there.
    pub fn gm_buffer(&self, op: hivm_ir::OpId, nth: u64, len: usize) -> Result<crate::memory::SharedBuf, String> {
        let mut st = self.lock();
        if let Some(b) = st.gm_bufs.get(&(op, nth)) {
            if b.0.len() != len {
                return Err(format!(
                    "the cores of a mix kernel allocate different sizes here ({} and {len} bytes)",
                    b.0.len()
                ));
            }
            return Ok(b.0.share());
        }
        let b = crate::memory::Buffer::new(len, crate::memory::Space::Gm)?;
        let shared = b.share();
        st.gm_bufs.insert((op, nth), Owned(b));
        Ok(shared)
    }

    fn set(&self, core: usize, flag: i64, snap: Clock, site: &Site, sub: bool) {
        let mut st = self.lock();
        if sub {
            st.sub_halves[core - 1].entry(flag).or_default().push_back((snap, site.clone()));
            while st.sub_halves.iter().all(|h| h.get(&flag).is_some_and(|q| !q.is_empty())) {
                let (mut merged, first) = st.sub_halves[0].get_mut(&flag).and_then(|q| q.pop_front()).expect("ready");
                let (other, _) = st.sub_halves[1].get_mut(&flag).and_then(|q| q.pop_front()).expect("ready");
                for (m, o) in merged.iter_mut().zip(other) {
                    *m = (*m).max(o);
                }
                for v in 1..CORES {
                    st.counts[v].entry(flag).or_default().push_back((merged, first.clone()));
                }
            }
        } else if core == CUBE {
            for v in 1..CORES {
                st.counts[v].entry(flag).or_default().push_back((snap, site.clone()));
            }
        } else {
            st.halves[core - 1].entry(flag).or_default().push_back((snap, site.clone()));
            loop {
                let ready = st.halves.iter().all(|h| h.get(&flag).is_some_and(|q| !q.is_empty()));
                if !ready {
                    break;
                }
                let (mut merged, first) = st.halves[0].get_mut(&flag).and_then(|q| q.pop_front()).expect("ready");
                let (other, _) = st.halves[1].get_mut(&flag).and_then(|q| q.pop_front()).expect("ready");
                for (m, o) in merged.iter_mut().zip(other) {
                    *m = (*m).max(o);
                }
                st.counts[CUBE].entry(flag).or_default().push_back((merged, first));
            }
        }
    }

    /// Takes a count of `flag` for `core`, waiting (other cores run) until
    /// there is one; None when the wait hangs (reported).
    fn wait(&self, core: usize, flag: i64, site: &Site, what: String) -> Result<Option<Clock>, Aborted> {
        let mut st = self.lock();
        loop {
            if st.abort {
                return Err(Aborted);
            }
            // Only the core whose turn it is runs.
            if st.turn == core {
                if let Some(c) = st.counts[core].get_mut(&flag).and_then(|q| q.pop_front()) {
                    st.status[core] = Status::Running;
                    return Ok(Some(c.0));
                }
                if std::mem::take(&mut st.released[core]) {
                    st.status[core] = Status::Running;
                    return Ok(None);
                }
                if st.status[core] == Status::Running {
                    st.status[core] = Status::Blocked(flag);
                    st.waits[core] = Some((site.clone(), what.clone()));
                    pass_turn(&mut st, core);
                    self.turn.notify_all();
                    continue;
                }
            }
            st = self.turn.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Whether `core`, blocked on `flag`, could go on.
fn can_run(st: &State, core: usize) -> bool {
    match st.status[core] {
        Status::Ready => true,
        Status::Blocked(f) => st.counts[core].get(&f).is_some_and(|q| !q.is_empty()),
        _ => false,
    }
}

/// Hands the turn on from `from`: to the next core (in order) that can
/// run; when none can and some wait, the first of them hangs.
fn pass_turn(st: &mut State, from: usize) {
    // A stopped run ends: whoever waits is let go, and is no hang.
    if st.abort {
        return;
    }
    let order = (1..=CORES).map(|i| (from + i) % CORES);
    if let Some(next) = order.clone().find(|&c| can_run(st, c)) {
        st.turn = next;
        return;
    }
    let Some(stuck) = order.clone().find(|&c| matches!(st.status[c], Status::Blocked(_))) else { return };
    let Status::Blocked(flag) = st.status[stuck] else { return };
    let (site, what) = st.waits[stuck].take().unwrap_or((Site { op: None, detail: None }, String::new()));
    let other = pending_elsewhere(st, stuck, flag);
    st.reports.push(Report {
        class: Class::Hang,
        site,
        message: format!(
            "{what} on {} waits for flag {flag}, which no core sets (every core is waiting or done): \
             this hangs on hardware",
            core_name(stuck)
        ),
        other,
    });
    st.released[stuck] = true;
    st.turn = stuck;
}

/// A set that did not reach `core` as flag `flag`: another id for it, or
/// one vector core's half of a flag for the cube or (INTER_SUBBLOCK) for
/// both vector cores.
fn pending_elsewhere(st: &State, core: usize, flag: i64) -> Option<(Site, String)> {
    if core == CUBE {
        for (v, h) in st.halves.iter().enumerate() {
            if let Some((_, s)) = h.get(&flag).and_then(|q| q.front()) {
                return Some((
                    s.clone(),
                    format!(
                        "only vector core {v} set flag {flag} here; the cube core's count needs both vector cores' sets"
                    ),
                ));
            }
        }
    } else {
        for (v, h) in st.sub_halves.iter().enumerate() {
            if let Some((_, s)) = h.get(&flag).and_then(|q| q.front()) {
                return Some((
                    s.clone(),
                    format!(
                        "only vector core {v} set flag {flag} here in INTER_SUBBLOCK mode; a count needs both vector cores' sets"
                    ),
                ));
            }
        }
    }
    let mut others: Vec<(&i64, &VecDeque<Count>)> = st.counts[core].iter().filter(|(_, q)| !q.is_empty()).collect();
    others.sort_by_key(|(f, _)| **f);
    others.first().and_then(|(f, q)| q.front().map(|(_, s)| (s.clone(), format!("flag {f} was set here instead"))))
}

/// One core's side of the block's shared state.
pub struct Link {
    pub shared: Arc<Shared>,
    pub core: usize,
    /// Global memory every core sees (the kernel's arguments).
    pub gm: Vec<(u64, u64)>,
}

impl Link {
    /// Checks and logs an access of instruction `idx` of this core's
    /// `pipe` (whose clock is `known`) if it touches global memory.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn access(
        &self,
        known: &Clock,
        pipe: usize,
        idx: u64,
        start: u64,
        end: u64,
        write: bool,
        site: &Site,
        describe: impl Fn(u64, u64) -> String,
    ) -> Option<Report> {
        if !self.gm.iter().any(|(s, n)| start < s + n && *s < end) {
            return None;
        }
        let mut st = self.shared.lock();
        let me = self.core;
        let found = st
            .log
            .iter()
            .find(|a| {
                a.core != me
                    && a.start < end
                    && start < a.end
                    && (a.write || write)
                    && known[col(a.core, a.pipe)] < a.idx
            })
            .map(|a| (a.core, a.pipe, a.write, a.site.clone()));
        // An earlier access of the same pipe inside this one's range, and no
        // more a write, can only conflict where this one does.
        st.log.retain(|a| {
            !(a.core == me && a.pipe == pipe && a.idx <= idx && start <= a.start && a.end <= end && (write || !a.write))
        });
        st.log.push(CrossAccess { core: me, pipe, idx, start, end, write, site: site.clone() });
        if st.log.len() >= st.prune_at {
            let floors = st.floors;
            st.log.retain(|a| (0..CORES).any(|d| d != a.core && floors[d][col(a.core, a.pipe)] < a.idx));
            st.prune_at = (st.log.len() * 2).max(1024);
        }
        drop(st);
        let (core, opipe, owrite, other) = found?;
        let kind = |w: bool| if w { "write" } else { "read" };
        Some(Report {
            class: Class::Race,
            site: site.clone(),
            message: format!(
                "race across cores: {} {} of {} on {} is not ordered after {}'s {} {} of the same memory \
                 (no sync_block_set/sync_block_wait handshake orders them)",
                pipe_name(pipe),
                kind(write),
                describe(start, end - start),
                core_name(me),
                core_name(core),
                pipe_name(opipe),
                kind(owrite),
            ),
            other: Some((other, format!("the {} on {}", kind(owrite), core_name(core)))),
        })
    }
}

impl SyncChecker {
    /// `sync_block_set` on `pipe` of this core for `flag`; `sub`: in
    /// INTER_SUBBLOCK mode (a vector core, for its sibling and itself).
    pub fn block_set(&mut self, pipe: usize, flag: i64, site: &Site, sub: bool) {
        self.note(pipe, site, |_| format!("sync_block_set flag {flag}"));
        let (p, _) = self.issue(pipe);
        if p == S {
            self.scalar_boundary();
        }
        let Some(link) = &self.cross else { return };
        let mut snap = self.known[p];
        snap[p] = self.count[p];
        let mut out = [0; WIDTH];
        out[PIPES..].copy_from_slice(&snap[PIPES..]);
        for r in 0..PIPES {
            out[col(link.core, r)] = snap[r];
        }
        link.shared.set(link.core, flag, out, site, sub && link.core != CUBE);
    }

    /// `sync_block_wait` on `pipe` of this core for `flag` (`what` names
    /// the op in a hang report); Err when another core failed.
    pub fn block_wait(&mut self, pipe: usize, flag: i64, site: &Site, what: String) -> Result<(), Aborted> {
        self.note(pipe, site, |_| format!("sync_block_wait flag {flag}"));
        let (q, _) = self.issue(pipe);
        let Some(link) = &self.cross else { return Ok(()) };
        if let Some(snap) = link.shared.wait(link.core, flag, site, what)? {
            for (k, s) in self.known[q].iter_mut().zip(snap).skip(PIPES) {
                *k = (*k).max(s);
            }
        }
        let mut floor = [u64::MAX; WIDTH];
        for k in &self.known {
            for (f, x) in floor.iter_mut().zip(k).skip(PIPES) {
                *f = (*f).min(*x);
            }
        }
        link.shared.lock().floors[link.core][PIPES..].copy_from_slice(&floor[PIPES..]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{FIX, MTE2, V};
    use super::*;

    fn site() -> Site {
        Site { op: None, detail: None }
    }

    /// A cube checker and a vector-core checker over GM `[0, 4096)`; the
    /// cube core has the turn.
    fn pair() -> (Arc<Shared>, SyncChecker, SyncChecker) {
        let shared = Arc::new(Shared::default());
        let mut c = SyncChecker::new(false);
        let mut v = SyncChecker::new(false);
        c.cross = Some(Link { shared: shared.clone(), core: CUBE, gm: vec![(0, 1 << 20)] });
        v.cross = Some(Link { shared: shared.clone(), core: 1, gm: vec![(0, 1 << 20)] });
        assert!(shared.start(CUBE).is_ok());
        (shared, c, v)
    }

    fn access(c: &mut SyncChecker, pipe: usize, write: bool) {
        c.issue(pipe);
        c.access(pipe, 0, 64, write, &site());
    }

    fn races(c: &SyncChecker) -> usize {
        c.reports.iter().filter(|r| r.class == Class::Race).count()
    }

    /// The cube core ends; vector core 1 gets the turn.
    fn hand_over(shared: &Shared) {
        shared.finish(CUBE, false);
        assert!(shared.start(1).is_ok());
    }

    #[test]
    fn a_flag_orders_what_its_pipe_saw_for_what_the_waiting_pipe_dispatches() {
        let (shared, mut c, mut v) = pair();
        access(&mut c, FIX, true);
        c.block_set(FIX, 0, &site(), false);
        hand_over(&shared);
        assert!(v.block_wait(S, 0, &site(), String::new()).is_ok());
        // A wait on PIPE_S orders everything the scalar unit issues later.
        access(&mut v, MTE2, false);
        assert_eq!(races(&v), 0);
    }

    #[test]
    fn without_a_wait_the_cores_race() {
        let (shared, mut c, mut v) = pair();
        access(&mut c, FIX, true);
        c.block_set(FIX, 0, &site(), false);
        hand_over(&shared);
        access(&mut v, MTE2, false);
        assert_eq!(races(&v), 1);
        assert!(v.reports[0].message.contains("across cores"), "{}", v.reports[0].message);
    }

    #[test]
    fn what_a_wait_brought_in_travels_only_along_the_cores_own_flags() {
        for chained in [false, true] {
            let (shared, mut c, mut v) = pair();
            access(&mut c, FIX, true);
            c.block_set(FIX, 0, &site(), false);
            hand_over(&shared);
            // The wait is on PIPE_V: MTE2 learns of it only through V -> MTE2.
            assert!(v.block_wait(V, 0, &site(), String::new()).is_ok());
            if chained {
                v.set_flag(V, MTE2, 0, &site());
                v.wait_flag(V, MTE2, 0, &site());
            }
            access(&mut v, MTE2, false);
            assert_eq!(races(&v), usize::from(!chained), "chained: {chained}");
        }
    }

    #[test]
    fn a_set_covers_only_what_its_pipe_has_seen() {
        // The cube's write is on MTE2; the set on FIX does not wait for it.
        let (shared, mut c, mut v) = pair();
        access(&mut c, MTE2, true);
        c.block_set(FIX, 0, &site(), false);
        hand_over(&shared);
        assert!(v.block_wait(S, 0, &site(), String::new()).is_ok());
        access(&mut v, MTE2, false);
        assert_eq!(races(&v), 1);
    }

    #[test]
    fn an_access_one_core_knows_of_still_races_with_another() {
        // The cube writes; vector core 1 learns of it, vector core 2 does
        // not. However long the log grows, core 2's read is a race.
        let (shared, mut c, mut v) = pair();
        access(&mut c, FIX, true);
        c.block_set(FIX, 0, &site(), false);
        hand_over(&shared);
        assert!(v.block_wait(S, 0, &site(), String::new()).is_ok());
        for i in 0..3000 {
            v.issue(MTE2);
            v.access(MTE2, 64 + 64 * i, 32, false, &site());
        }
        assert_eq!(races(&v), 0);
        shared.finish(1, false);
        let mut w = SyncChecker::new(false);
        w.cross = Some(Link { shared: shared.clone(), core: 2, gm: vec![(0, 1 << 20)] });
        assert!(shared.start(2).is_ok());
        access(&mut w, MTE2, false);
        assert_eq!(races(&w), 1);
    }

    #[test]
    fn the_cube_needs_both_vector_cores_sets() {
        let shared = Shared::default();
        shared.set(1, 2, [0; WIDTH], &site(), false);
        assert!(shared.lock().counts[CUBE].get(&2).is_none_or(|q| q.is_empty()));
        shared.set(2, 2, [0; WIDTH], &site(), false);
        assert_eq!(shared.lock().counts[CUBE][&2].len(), 1);
        // A cube set gives each vector core one count.
        shared.set(CUBE, 5, [0; WIDTH], &site(), false);
        assert_eq!(shared.lock().counts[1][&5].len(), 1);
        assert_eq!(shared.lock().counts[2][&5].len(), 1);
        let left = shared.take_reports();
        assert_eq!(left.len(), 3);
        assert!(left.iter().all(|r| r.class == Class::Leftover));
    }

    #[test]
    fn a_sub_block_set_reaches_both_vector_cores_once_both_set() {
        let shared = Shared::default();
        let mut a = [0; WIDTH];
        a[0] = 3;
        let mut b = [0; WIDTH];
        b[1] = 5;
        shared.set(1, 4, a, &site(), true);
        assert!(shared.lock().counts[1].get(&4).is_none_or(|q| q.is_empty()));
        shared.set(2, 4, b, &site(), true);
        for v in [1, 2] {
            let st = shared.lock();
            let (clock, _) = &st.counts[v][&4][0];
            // Each learns what both setters had seen.
            assert_eq!((clock[0], clock[1]), (3, 5));
        }
        assert!(!shared.lock().counts[CUBE].contains_key(&4));
        // One unmatched half is a leftover naming the sibling.
        shared.set(2, 6, b, &site(), true);
        let left = shared.take_reports();
        assert!(left.iter().any(|r| r.message.contains("vector core 1's INTER_SUBBLOCK sync_block_set of flag 6")));
    }
}
