//! Cross-core synchronisation: the cores that run together (one block of a
//! mix kernel: one cube core and two vector cores, 910B's ratio; or, for a
//! kernel with INTER_BLOCK flags, every block's cores) each with its own
//! pipes and checker, meeting only through FFTS flags (`sync_block_set` /
//! `sync_block_wait`) and global memory.
//!
//! Flags: a set on the cube core gives each of its block's vector cores one
//! count of that flag id; the cube core gets one count once both vector
//! cores have set it (FFTS collects a flag from every sub-block before it
//! passes it on). In INTER_SUBBLOCK mode a block's vector cores sync with
//! each other: once both have set a flag, each gets one count of it. In
//! INTER_BLOCK mode every core of the setter's type (all cube cores, or all
//! vector cores, of all blocks) must set the flag; then each of them gets
//! one count. A count carries the setters' vector clocks, so a wait learns
//! what the setting pipes had seen finish, on their own cores and
//! (transitively) others.
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

use super::blocks::Kind;
use super::{Class, Clock, PIPES, Report, S, Site, SyncChecker, pipe_name};

/// Cores per block of a mix kernel: the cube core (0), then vector cores 1
/// and 2.
pub const CORES: usize = 3;
pub const CUBE: usize = 0;

/// The cores that run together, numbered block by block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Blocks run together (1 when the kernel's blocks run one by one).
    pub blocks: usize,
    /// `CORES` for a mix kernel; 1 for a kernel of one core type.
    pub per_block: usize,
    /// With one core per block: whether it is a cube core.
    pub cube: bool,
}

impl Default for Grid {
    /// One block of a mix kernel.
    fn default() -> Grid {
        Grid::mix(1)
    }
}

impl Grid {
    pub fn mix(blocks: usize) -> Grid {
        Grid { blocks, per_block: CORES, cube: false }
    }

    pub fn single(blocks: usize, cube: bool) -> Grid {
        Grid { blocks, per_block: 1, cube }
    }

    pub fn cores(&self) -> usize {
        self.blocks * self.per_block
    }

    /// The block (among those run together) `core` belongs to.
    pub fn block(&self, core: usize) -> usize {
        core / self.per_block
    }

    /// The core's place in its block: `CUBE` or vector core 1 or 2 in a
    /// mix kernel, 0 otherwise.
    pub fn local(&self, core: usize) -> usize {
        core % self.per_block
    }

    pub fn is_cube(&self, core: usize) -> bool {
        if self.per_block == 1 { self.cube } else { self.local(core) == CUBE }
    }

    /// How reports name a core (with its block when blocks run together).
    pub fn name(&self, core: usize) -> String {
        let what = match (self.per_block, self.local(core)) {
            (1, _) if self.cube => "the cube core".to_string(),
            (1, _) => "the vector core".to_string(),
            (_, CUBE) => "the cube core".to_string(),
            (_, l) => format!("vector core {}", l - 1),
        };
        if self.blocks > 1 { format!("{what} of block {}", self.block(core)) } else { what }
    }

    /// The cores of the given type, in order.
    fn members(&self, cube: bool) -> Vec<usize> {
        (0..self.cores()).filter(|&c| self.is_cube(c) == cube).collect()
    }

    fn type_name(cube: bool) -> &'static str {
        if cube { "cube" } else { "vector" }
    }
}

/// How a `sync_block_set` routes its flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Between a block's cube core and its vector cores.
    IntraBlock,
    /// Between a block's two vector cores.
    InterSubblock,
    /// Among all cores of the setter's type, in every block.
    InterBlock,
}

impl Mode {
    /// The mode a `sync_block_set`/`sync_block_wait` names (INTRA_BLOCK
    /// when it names none).
    pub fn of(ir: &hivm_ir::Ir, op: hivm_ir::OpId) -> Mode {
        let mode = ir
            .get_attr(op, "tsync_instr_mode")
            .and_then(|a| hivm_dialects::hivm::attrs::enum_value(ir, a, "sync_block_instr_mode"));
        match mode {
            Some("INTER_BLOCK_SYNCHRONIZATION") => Mode::InterBlock,
            Some("INTER_SUBBLOCK_SYNCHRONIZATION") => Mode::InterSubblock,
            _ => Mode::IntraBlock,
        }
    }
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
type Queues = HashMap<i64, VecDeque<Count>>;

struct CrossAccess {
    core: usize,
    pipe: usize,
    idx: u64,
    start: u64,
    end: u64,
    kind: Kind,
    site: Site,
}

struct State {
    turn: usize,
    status: Vec<Status>,
    /// A hang was reported for this core's wait: let it through.
    released: Vec<bool>,
    /// Some core failed: the others stop at their next wait.
    abort: bool,
    /// Per receiving core and flag id, the counts not yet waited for.
    counts: Vec<Queues>,
    /// Per block, its vector cores' sets of a flag for the cube, until both
    /// have set it.
    halves: Vec<[Queues; 2]>,
    /// Per block, its vector cores' INTER_SUBBLOCK sets, until both have
    /// set the flag.
    sub_halves: Vec<[Queues; 2]>,
    /// INTER_BLOCK sets of the vector (0) and cube (1) cores: per flag, per
    /// core of the type (in `Grid::members` order), until all have set it.
    inter: [HashMap<i64, Vec<VecDeque<Count>>>; 2],
    /// Where each blocked core waits, for the hang report.
    waits: Vec<Option<(Site, String)>>,
    log: Vec<CrossAccess>,
    /// Per core, what every one of its pipes has learnt of the others (the
    /// least over its pipes; a finished core knows everything): an access
    /// every other core knows of can never race again.
    floors: Vec<Clock>,
    prune_at: usize,
    /// Reports that concern no single core's run, with the core's block.
    reports: Vec<(usize, Report)>,
    /// With several blocks: the hang reported at a wait for a core of the
    /// block (its place), and how many other blocks' cores hung there too.
    hangs: HashMap<(Site, usize), (usize, usize)>,
    /// GM buffers the kernel allocates, by block, op and run of it: every
    /// core of a block gets the same memory for its n-th run of an
    /// allocation.
    gm_bufs: HashMap<(usize, hivm_ir::OpId, u64), Owned>,
}

/// A buffer owned by the shared state.
struct Owned(crate::memory::Buffer);

// SAFETY: a buffer is a shared mapping (plain memory) that only the
// running core touches; dropping it from another thread only unmaps it.
unsafe impl Send for Owned {}

/// What the cores that run together share.
pub struct Shared {
    pub grid: Grid,
    state: Mutex<State>,
    turn: Condvar,
    /// The caller asked the run to stop (Python's Ctrl-C): the running core
    /// stops at its next periodic check, the others at their next wait.
    stop: AtomicBool,
}

impl Default for Shared {
    fn default() -> Self {
        Shared::new(Grid::default())
    }
}

/// The run was stopped because another core failed.
pub struct Aborted;

impl Shared {
    pub fn new(grid: Grid) -> Shared {
        let n = grid.cores();
        let width = PIPES * (1 + n);
        Shared {
            grid,
            state: Mutex::new(State {
                turn: 0,
                status: vec![Status::Ready; n],
                released: vec![false; n],
                abort: false,
                counts: vec![Queues::new(); n],
                halves: vec![Default::default(); grid.blocks],
                sub_halves: vec![Default::default(); grid.blocks],
                inter: Default::default(),
                waits: vec![None; n],
                log: Vec::new(),
                floors: vec![vec![0; width]; n],
                prune_at: 1024,
                reports: Vec::new(),
                hangs: HashMap::new(),
                gm_bufs: HashMap::new(),
            }),
            turn: Condvar::new(),
            stop: AtomicBool::new(false),
        }
    }

    /// How many cores run together.
    pub fn cores(&self) -> usize {
        self.grid.cores()
    }

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
        st.floors[core].iter_mut().for_each(|f| *f = u64::MAX);
        st.abort |= failed;
        pass_turn(&mut st, &self.grid, core);
        self.turn.notify_all();
    }

    /// Sets and hang reports that concern no single core, and the leftover
    /// counts, once every core has ended, each with its core's block.
    pub fn take_reports(&self) -> Vec<(usize, Report)> {
        let grid = &self.grid;
        let mut st = self.lock();
        let mut left: Vec<(usize, i64, Site)> = Vec::new();
        for (core, m) in st.counts.iter().enumerate() {
            for (flag, q) in m {
                left.extend(q.iter().map(|(_, s)| (core, *flag, s.clone())));
            }
        }
        for (b, halves) in st.halves.iter().enumerate() {
            for m in halves {
                for (flag, q) in m {
                    left.extend(q.iter().map(|(_, s)| (b * grid.per_block + CUBE, *flag, s.clone())));
                }
            }
        }
        left.sort_by_key(|(c, f, s)| (*c, *f, s.op));
        let mut reports = std::mem::take(&mut st.reports);
        for (at, others) in st.hangs.values() {
            if *others > 0 {
                let m = &mut reports[*at].1.message;
                m.push_str(&format!(" (so does the same core's wait here in {others} other block(s))"));
            }
        }
        for (core, flag, site) in left {
            reports.push((
                grid.block(core),
                Report {
                    class: Class::Leftover,
                    site,
                    message: format!(
                        "sync_block_set of flag {flag} for {} is still set when the kernel ends \
                         (no sync_block_wait consumed it)",
                        grid.name(core)
                    ),
                    other: None,
                },
            ));
        }
        // An INTER_SUBBLOCK set the sibling vector core never matched.
        let mut unmatched: Vec<(usize, usize, i64, Site)> = Vec::new();
        for (b, halves) in st.sub_halves.iter().enumerate() {
            for (k, m) in halves.iter().enumerate() {
                for (flag, q) in m {
                    unmatched.extend(q.iter().map(|(_, s)| (b, k, *flag, s.clone())));
                }
            }
        }
        unmatched.sort_by_key(|(b, k, f, s)| (*b, *k, *f, s.op));
        for (b, k, flag, site) in unmatched {
            reports.push((
                b,
                Report {
                    class: Class::Leftover,
                    site,
                    message: format!(
                        "vector core {k}'s INTER_SUBBLOCK sync_block_set of flag {flag} is never matched by vector \
                         core {}'s when the kernel ends",
                        1 - k
                    ),
                    other: None,
                },
            ));
        }
        // An INTER_BLOCK set some core of its type never matched.
        let mut partial: Vec<(usize, bool, i64, usize, Site)> = Vec::new();
        for (t, m) in st.inter.iter().enumerate() {
            let members = grid.members(t == 1);
            for (flag, qs) in m {
                let set = qs.iter().filter(|q| !q.is_empty()).count();
                if let Some((i, (_, s))) = qs.iter().enumerate().find_map(|(i, q)| q.front().map(|c| (i, c))) {
                    partial.push((members[i], t == 1, *flag, set, s.clone()));
                }
            }
        }
        partial.sort_by_key(|(c, _, f, _, s)| (*c, *f, s.op));
        for (core, cube, flag, set, site) in partial {
            let n = grid.members(cube).len();
            reports.push((
                grid.block(core),
                Report {
                    class: Class::Leftover,
                    site,
                    message: format!(
                        "{}'s INTER_BLOCK sync_block_set of flag {flag} is never matched by every {} core when the \
                         kernel ends ({set} of {n} set it)",
                        grid.name(core),
                        Grid::type_name(cube)
                    ),
                    other: None,
                },
            ));
        }
        reports
    }

    /// The GM buffer of run `nth` of allocation `op` by `core`'s block
    /// (`len` bytes), made by the first of its cores to get there.
    pub fn gm_buffer(
        &self,
        core: usize,
        op: hivm_ir::OpId,
        nth: u64,
        len: usize,
    ) -> Result<crate::memory::SharedBuf, String> {
        let mut st = self.lock();
        let key = (self.grid.block(core), op, nth);
        if let Some(b) = st.gm_bufs.get(&key) {
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
        st.gm_bufs.insert(key, Owned(b));
        Ok(shared)
    }

    fn set(&self, core: usize, flag: i64, snap: Clock, site: &Site, mode: Mode) {
        let grid = self.grid;
        let mut guard = self.lock();
        let st = &mut *guard;
        let block = grid.block(core);
        let first = block * grid.per_block;
        match mode {
            Mode::InterBlock => {
                let cube = grid.is_cube(core);
                let members = grid.members(cube);
                let me = members.iter().position(|c| *c == core).expect("a core of its own type");
                let qs =
                    st.inter[usize::from(cube)].entry(flag).or_insert_with(|| vec![VecDeque::new(); members.len()]);
                qs[me].push_back((snap, site.clone()));
                if let Some(count) = take_merged(&mut qs.iter_mut().collect::<Vec<_>>()) {
                    for m in members {
                        st.counts[m].entry(flag).or_default().push_back(count.clone());
                    }
                }
            }
            Mode::InterSubblock => {
                let half = grid.local(core) - 1;
                if let Some(count) = meet_halves(&mut st.sub_halves[block], half, flag, (snap, site.clone())) {
                    for v in 1..CORES {
                        st.counts[first + v].entry(flag).or_default().push_back(count.clone());
                    }
                }
            }
            Mode::IntraBlock if grid.local(core) == CUBE => {
                for v in 1..CORES {
                    st.counts[first + v].entry(flag).or_default().push_back((snap.clone(), site.clone()));
                }
            }
            Mode::IntraBlock => {
                let half = grid.local(core) - 1;
                if let Some(count) = meet_halves(&mut st.halves[block], half, flag, (snap, site.clone())) {
                    st.counts[first + CUBE].entry(flag).or_default().push_back(count);
                }
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
                    pass_turn(&mut st, &self.grid, core);
                    self.turn.notify_all();
                    continue;
                }
            }
            st = self.turn.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Once every queue in `qs` has a set: one set from each, their clocks
/// merged (named by the first), the count they make together.
fn take_merged(qs: &mut [&mut VecDeque<Count>]) -> Option<Count> {
    if qs.iter().any(|q| q.is_empty()) {
        return None;
    }
    let mut merged: Option<Count> = None;
    for q in qs.iter_mut() {
        let (c, s) = q.pop_front()?;
        match &mut merged {
            Some((m, _)) => m.iter_mut().zip(c).for_each(|(m, o)| *m = (*m).max(o)),
            None => merged = Some((c, s)),
        }
    }
    merged
}

/// A block's vector core `half` (0 or 1) sets `flag`: the count both of
/// them make, once the other has set it too.
fn meet_halves(halves: &mut [Queues; 2], half: usize, flag: i64, set: Count) -> Option<Count> {
    halves[half].entry(flag).or_default().push_back(set);
    let [a, b] = halves;
    take_merged(&mut [a.entry(flag).or_default(), b.entry(flag).or_default()])
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
fn pass_turn(st: &mut State, grid: &Grid, from: usize) {
    // A stopped run ends: whoever waits is let go, and is no hang.
    if st.abort {
        return;
    }
    let n = st.status.len();
    let order = (1..=n).map(|i| (from + i) % n);
    if let Some(next) = order.clone().find(|&c| can_run(st, c)) {
        st.turn = next;
        return;
    }
    let Some(stuck) = order.clone().find(|&c| matches!(st.status[c], Status::Blocked(_))) else { return };
    let Status::Blocked(flag) = st.status[stuck] else { return };
    let (site, what) = st.waits[stuck].take().unwrap_or((Site { op: None, detail: None }, String::new()));
    st.released[stuck] = true;
    st.turn = stuck;
    // Every block's core waiting at one op is one report, with a count.
    let key = (site.clone(), grid.local(stuck));
    if grid.blocks > 1
        && let Some((_, others)) = st.hangs.get_mut(&key)
    {
        *others += 1;
        return;
    }
    let n = st.reports.len();
    st.hangs.insert(key, (n, 0));
    let other = pending_elsewhere(st, grid, stuck, flag);
    st.reports.push((
        grid.block(stuck),
        Report {
            class: Class::Hang,
            site,
            message: format!(
                "{what} on {} waits for flag {flag}, which no core sets (every core is waiting or done): \
                 this hangs on hardware",
                grid.name(stuck)
            ),
            other,
        },
    ));
}

/// A set that did not reach `core` as flag `flag`: another id for it, one
/// vector core's half of a flag for the cube or (INTER_SUBBLOCK) for both
/// vector cores, or some of the INTER_BLOCK sets a count needs.
fn pending_elsewhere(st: &State, grid: &Grid, core: usize, flag: i64) -> Option<(Site, String)> {
    let block = grid.block(core);
    let cube = grid.is_cube(core);
    if let Some(qs) = st.inter[usize::from(cube)].get(&flag)
        && let Some((_, s)) = qs.iter().find_map(|q| q.front())
    {
        let set = qs.iter().filter(|q| !q.is_empty()).count();
        return Some((
            s.clone(),
            format!(
                "flag {flag} was set here in INTER_BLOCK mode by {set} of the {} {} cores; a count needs every one's set",
                qs.len(),
                Grid::type_name(cube)
            ),
        ));
    }
    if grid.per_block == CORES && grid.local(core) == CUBE {
        for (v, h) in st.halves[block].iter().enumerate() {
            if let Some((_, s)) = h.get(&flag).and_then(|q| q.front()) {
                return Some((
                    s.clone(),
                    format!(
                        "only vector core {v} set flag {flag} here; the cube core's count needs both vector cores' sets"
                    ),
                ));
            }
        }
    } else if grid.per_block == CORES {
        for (v, h) in st.sub_halves[block].iter().enumerate() {
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

/// One core's side of the shared state.
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
        known: &[u64],
        pipe: usize,
        idx: u64,
        start: u64,
        end: u64,
        kind: Kind,
        site: &Site,
        describe: impl Fn(u64, u64) -> String,
    ) -> Option<Report> {
        if !self.gm.iter().any(|(s, n)| start < s + n && *s < end) {
            return None;
        }
        let grid = self.shared.grid;
        let mut st = self.shared.lock();
        let me = self.core;
        let found = st
            .log
            .iter()
            .find(|a| {
                a.core != me
                    && a.start < end
                    && start < a.end
                    && kind.conflicts(a.kind)
                    && known[col(a.core, a.pipe)] < a.idx
            })
            .map(|a| (a.core, a.pipe, a.kind, a.site.clone()));
        // An earlier access of the same pipe inside this one's range, which
        // conflicts with nothing this one does not, can only conflict where
        // this one does.
        st.log.retain(|a| {
            !(a.core == me
                && a.pipe == pipe
                && a.idx <= idx
                && start <= a.start
                && a.end <= end
                && (kind == Kind::Write || a.kind == kind))
        });
        st.log.push(CrossAccess { core: me, pipe, idx, start, end, kind, site: site.clone() });
        if st.log.len() >= st.prune_at {
            let State { log, floors, .. } = &mut *st;
            log.retain(|a| (0..floors.len()).any(|d| d != a.core && floors[d][col(a.core, a.pipe)] < a.idx));
            st.prune_at = (st.log.len() * 2).max(1024);
        }
        drop(st);
        let (core, opipe, okind, other) = found?;
        let how = if grid.block(core) == grid.block(me) {
            "no sync_block_set/sync_block_wait handshake orders them"
        } else {
            "blocks are ordered only by INTER_BLOCK sync_block_set/sync_block_wait"
        };
        Some(Report {
            class: Class::Race,
            site: site.clone(),
            message: format!(
                "race across cores: {} {} of {} on {} is not ordered after {}'s {} {} of the same memory ({how})",
                pipe_name(pipe),
                kind.name(),
                describe(start, end - start),
                grid.name(me),
                grid.name(core),
                pipe_name(opipe),
                okind.name(),
            ),
            other: Some((other, format!("the {} on {}", okind.name(), grid.name(core)))),
        })
    }
}

impl SyncChecker {
    /// `sync_block_set` on `pipe` of this core for `flag`, routed by `mode`.
    pub fn block_set(&mut self, pipe: usize, flag: i64, site: &Site, mode: Mode) {
        self.note(pipe, site, |_| format!("sync_block_set flag {flag}"));
        let (p, _) = self.issue(pipe);
        if p == S {
            self.scalar_boundary();
        }
        let Some(link) = &self.cross else { return };
        let mut snap = self.known[p].clone();
        snap[p] = self.count[p];
        let mut out = vec![0; snap.len()];
        out[PIPES..].copy_from_slice(&snap[PIPES..]);
        for r in 0..PIPES {
            out[col(link.core, r)] = snap[r];
        }
        link.shared.set(link.core, flag, out, site, mode);
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
        let mut floor = vec![u64::MAX; self.count.len()];
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
        c.link(Link { shared: shared.clone(), core: CUBE, gm: vec![(0, 1 << 20)] });
        v.link(Link { shared: shared.clone(), core: 1, gm: vec![(0, 1 << 20)] });
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
        c.block_set(FIX, 0, &site(), Mode::IntraBlock);
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
        c.block_set(FIX, 0, &site(), Mode::IntraBlock);
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
            c.block_set(FIX, 0, &site(), Mode::IntraBlock);
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
        c.block_set(FIX, 0, &site(), Mode::IntraBlock);
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
        c.block_set(FIX, 0, &site(), Mode::IntraBlock);
        hand_over(&shared);
        assert!(v.block_wait(S, 0, &site(), String::new()).is_ok());
        for i in 0..3000 {
            v.issue(MTE2);
            v.access(MTE2, 64 + 64 * i, 32, false, &site());
        }
        assert_eq!(races(&v), 0);
        shared.finish(1, false);
        let mut w = SyncChecker::new(false);
        w.link(Link { shared: shared.clone(), core: 2, gm: vec![(0, 1 << 20)] });
        assert!(shared.start(2).is_ok());
        access(&mut w, MTE2, false);
        assert_eq!(races(&w), 1);
    }

    #[test]
    fn the_cube_needs_both_vector_cores_sets() {
        let shared = Shared::default();
        let zero = vec![0; PIPES * 4];
        shared.set(1, 2, zero.clone(), &site(), Mode::IntraBlock);
        assert!(shared.lock().counts[CUBE].get(&2).is_none_or(|q| q.is_empty()));
        shared.set(2, 2, zero.clone(), &site(), Mode::IntraBlock);
        assert_eq!(shared.lock().counts[CUBE][&2].len(), 1);
        // A cube set gives each vector core one count.
        shared.set(CUBE, 5, zero, &site(), Mode::IntraBlock);
        assert_eq!(shared.lock().counts[1][&5].len(), 1);
        assert_eq!(shared.lock().counts[2][&5].len(), 1);
        let left = shared.take_reports();
        assert_eq!(left.len(), 3);
        assert!(left.iter().all(|(_, r)| r.class == Class::Leftover));
    }

    #[test]
    fn a_sub_block_set_reaches_both_vector_cores_once_both_set() {
        let shared = Shared::default();
        let mut a = vec![0; PIPES * 4];
        a[0] = 3;
        let mut b = vec![0; PIPES * 4];
        b[1] = 5;
        shared.set(1, 4, a, &site(), Mode::InterSubblock);
        assert!(shared.lock().counts[1].get(&4).is_none_or(|q| q.is_empty()));
        shared.set(2, 4, b.clone(), &site(), Mode::InterSubblock);
        for v in [1, 2] {
            let st = shared.lock();
            let (clock, _) = &st.counts[v][&4][0];
            // Each learns what both setters had seen.
            assert_eq!((clock[0], clock[1]), (3, 5));
        }
        assert!(!shared.lock().counts[CUBE].contains_key(&4));
        // One unmatched half is a leftover naming the sibling.
        shared.set(2, 6, b, &site(), Mode::InterSubblock);
        let left = shared.take_reports();
        assert!(
            left.iter().any(|(_, r)| r.message.contains("vector core 1's INTER_SUBBLOCK sync_block_set of flag 6"))
        );
    }

    #[test]
    fn an_inter_block_set_counts_once_every_core_of_its_type_has_set() {
        let grid = Grid::single(3, false);
        let shared = Shared::new(grid);
        let width = PIPES * (1 + grid.cores());
        let mut clocks = Vec::new();
        for core in 0..3 {
            let mut c = vec![0; width];
            c[col(core, MTE2)] = core as u64 + 1;
            clocks.push(c);
        }
        shared.set(0, 12, clocks[0].clone(), &site(), Mode::InterBlock);
        shared.set(1, 12, clocks[1].clone(), &site(), Mode::InterBlock);
        assert!((0..3).all(|c| shared.lock().counts[c].get(&12).is_none_or(|q| q.is_empty())));
        shared.set(2, 12, clocks[2].clone(), &site(), Mode::InterBlock);
        for core in 0..3 {
            let st = shared.lock();
            let (clock, _) = &st.counts[core][&12][0];
            // Each learns what every setter had seen.
            assert_eq!((0..3).map(|c| clock[col(c, MTE2)]).collect::<Vec<_>>(), vec![1, 2, 3]);
        }
        // In a mix grid the cube cores (0 and 3) meet each other only.
        let grid = Grid::mix(2);
        let shared = Shared::new(grid);
        let zero = vec![0; PIPES * (1 + grid.cores())];
        shared.set(0, 13, zero.clone(), &site(), Mode::InterBlock);
        shared.set(1, 13, zero.clone(), &site(), Mode::InterBlock);
        assert!(shared.lock().counts[0].get(&13).is_none_or(|q| q.is_empty()));
        shared.set(3, 13, zero, &site(), Mode::InterBlock);
        let st = shared.lock();
        assert_eq!((st.counts[0][&13].len(), st.counts[3][&13].len()), (1, 1));
        assert!([1, 2, 4, 5].iter().all(|c| st.counts[*c].get(&13).is_none_or(|q| q.is_empty())));
        drop(st);
        // Vector core 0 of block 0 set alone: a partial round is left over.
        let left = shared.take_reports();
        assert!(left.iter().any(|(b, r)| *b == 0
            && r.message.contains("vector core 0 of block 0's INTER_BLOCK sync_block_set of flag 13")
            && r.message.contains("(1 of 4 set it)")));
    }

    #[test]
    fn cores_are_named_with_their_block_when_blocks_run_together() {
        assert_eq!(Grid::mix(1).name(2), "vector core 1");
        assert_eq!(Grid::mix(2).name(3), "the cube core of block 1");
        assert_eq!(Grid::single(4, false).name(2), "the vector core of block 2");
        assert_eq!(Grid::single(1, true).name(0), "the cube core");
    }
}
