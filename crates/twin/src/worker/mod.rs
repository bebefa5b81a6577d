//! The call worker: one long-lived process, forked from the twin's own, in
//! which implementations run. A call is a request on a shared page
//! (`doorbell.rs`) instead of a fork, so it costs microseconds; the
//! isolation is that of a forked child all the same:
//!
//! - the worker maps every twin buffer at the address the interpreter uses
//!   (inherited at the fork, or sent later as a memfd, see `shm.rs`);
//! - a crash, `exit`, a timeout or a stack overflow ends the worker, is
//!   reported as before, and the next call forks a fresh one;
//! - whatever a call leaves running (child processes, even double-forked
//!   ones, since the worker is their subreaper, or threads) ends the worker
//!   with its whole process group right after the call.
//!
//! The worker sees only the twin's buffers, never the interpreter's private
//! memory, so memref descriptors are placed in shared memory too.

mod confine;
mod doorbell;
mod serve;
mod ub_pages;

use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use crate::native::{CallError, Ctx};
use doorbell::{Doorbell, Wait};

#[cfg(target_arch = "aarch64")]
pub const GPRS: usize = 8;
#[cfg(not(target_arch = "aarch64"))]
pub const GPRS: usize = 6;
pub const FPRS: usize = 8;
pub const STACK: usize = 16;
pub const WORDS: usize = GPRS + STACK;

/// One call, as the worker receives it.
pub struct Request<'a> {
    pub library: &'a std::path::Path,
    /// The library file's identity (device, inode, modification time): a
    /// rebuild into the same path must not find the old code loaded.
    pub library_id: (u64, u64, i64, i64),
    pub symbol: &'a str,
    pub ctx: *mut Ctx,
    pub words: [u64; WORDS],
    pub floats: [u64; FPRS],
}

pub(crate) const MSG_MAP: u64 = 1;
pub(crate) const MSG_CALL: u64 = 2;

pub(crate) const REPLY_OK: u64 = 0;
/// The call returned but left processes or threads behind.
pub(crate) const REPLY_DIRTY: u64 = 1;
/// A mapping could not be placed (outside the arena the worker inherited:
/// never, unless the two sides disagree).
pub(crate) const REPLY_COLLISION: u64 = 2;
/// Followed by a message.
pub(crate) const REPLY_ERROR: u64 = 3;
/// The call returned with the worker no longer subreaper: what it started
/// may have left the worker's tree, beyond our reach.
pub(crate) const REPLY_ESCAPED: u64 = 4;

/// How many descriptors one message carries (the kernel allows 253).
pub(crate) const FDS_PER_MSG: usize = 250;

struct Worker {
    pid: libc::pid_t,
    /// The process that forked it: a process forked from that one (Python's
    /// `os.fork`) inherits the handle but must neither use nor kill it.
    owner: libc::pid_t,
    /// Libraries the worker has been asked to call, by path, with the
    /// identity they had.
    libraries: std::collections::HashMap<std::path::PathBuf, (u64, u64, i64, i64)>,
    /// Carries memfd descriptors (requests and replies use the doorbell).
    sock: OwnedFd,
    bell: Doorbell,
    /// What the worker has mapped: serial -> (base, len).
    mapped: BTreeMap<u64, (u64, u64)>,
    /// Mapped serials it keeps inaccessible (pooled: no buffer's).
    fenced: std::collections::HashSet<u64>,
    generation: u64,
    /// Reserved ranges of the twin's address arena it inherited.
    chunks: usize,
}

/// Why the worker's mappings could not be brought up to date.
enum Stale {
    /// It lacks something a fresh fork would have: a buffer whose
    /// descriptor was dropped (past `shm::MAX_HELD`), or a range the arena
    /// reserved after it was forked.
    Refork,
    Failed(String),
}

type Job = (Box<dyn FnOnce() -> libc::pid_t + Send>, std::sync::mpsc::Sender<libc::pid_t>);
/// The thread that forks workers for a process whose calls come from other
/// threads (see `fork_worker`), with the process it belongs to.
static SPAWNER: crate::fork_lock::ForkLock<Option<(libc::pid_t, std::sync::mpsc::Sender<Job>)>> =
    crate::fork_lock::ForkLock::new(None);

/// The call worker. A `ForkLock`, so that a process forked while another
/// thread holds it (Python's `os.fork` during a `hivm.run`) can release it
/// in the child (`fork_safety`), where that thread is gone.
static WORKER: crate::fork_lock::ForkLock<Option<Worker>> = crate::fork_lock::ForkLock::new(None);

/// Registers, once, what a forked child must undo: the locks that threads
/// which do not exist in the child may hold. (The slot's worker is then the
/// parent's, which `call` forgets.)
fn fork_safety() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn child() {
        // SAFETY: the child has one thread, this one; a held lock belongs to
        // a thread that is not there, and nothing else can touch it now.
        unsafe {
            if WORKER.is_locked() {
                WORKER.reset_in_child();
            }
            if SPAWNER.is_locked() {
                SPAWNER.reset_in_child();
            }
            crate::native::spares_after_fork_in_child();
            crate::libraries::forget_in_child();
        }
    }
    // SAFETY: registering a handler that only releases our own locks.
    ONCE.call_once(|| unsafe {
        libc::pthread_atfork(None, None, Some(child));
    });
}

/// Runs one call in the worker (forking one first if needed) and waits at
/// most `timeout` for it.
pub fn call(req: &Request, timeout: Duration) -> Result<(), CallError> {
    fork_safety();
    let mut slot = WORKER.lock();
    // A worker that cannot take the current buffers without a fresh fork
    // (`Stale::Refork`) is replaced. A fresh one is stale again only if
    // other threads, meanwhile, made hundreds of buffers or outgrew the
    // arena's reservation, so a few attempts always suffice. (Mappings never
    // collide with the worker's own: they all lie in the arena it inherits.)
    const ATTEMPTS: usize = 4;
    for attempt in 0..ATTEMPTS {
        // SAFETY: plain query.
        let me = unsafe { libc::getpid() };
        if slot.as_ref().is_some_and(|w| w.owner != me) {
            // Inherited through a fork of this process: the parent's worker.
            drop(slot.take());
        }
        if slot.as_ref().is_some_and(|w| w.exited()) {
            slot.take().unwrap().reap();
            // Ended on its own (killed from outside): what it had started
            // went to another reaper, maybe still sharing our buffers.
            forget_shared();
        }
        // A library rebuilt into the same path: the worker may have the old
        // one loaded (the loader finds libraries by path), so it goes.
        if slot.as_ref().is_some_and(|w| w.libraries.get(req.library).is_some_and(|id| *id != req.library_id)) {
            slot.take().unwrap().kill();
        }
        if slot.is_none() {
            *slot = Some(Worker::spawn()?);
        }
        let w = slot.as_mut().unwrap();
        w.libraries.insert(req.library.to_path_buf(), req.library_id);
        match w.sync_mappings() {
            Ok(()) => {}
            Err(Stale::Refork) if attempt + 1 < ATTEMPTS => {
                slot.take().unwrap().kill();
                continue;
            }
            Err(Stale::Refork) => {
                slot.take().unwrap().kill();
                return Err(CallError::Internal("the call worker cannot map the twin's buffers".into()));
            }
            Err(Stale::Failed(e)) => {
                slot.take().unwrap().kill();
                return Err(CallError::Internal(e));
            }
        }
        let seq = w.bell.post(&encode_call(req)).map_err(CallError::Internal)?;
        // A timeout too large for the clock is no timeout.
        return match w.wait(seq, Instant::now().checked_add(timeout)) {
            Ok(r) if r.first() == Some(&REPLY_OK) => Ok(()),
            Ok(r) if r.first() == Some(&REPLY_DIRTY) => {
                // What the call left behind may still write the run's buffers:
                // the call counts only once all of it is gone.
                if slot.take().unwrap().kill() {
                    Ok(())
                } else {
                    Err(CallError::Internal("processes the call started could not be stopped".into()))
                }
            }
            Ok(r) if r.first() == Some(&REPLY_ESCAPED) => {
                slot.take().unwrap().kill();
                forget_shared();
                Err(CallError::Internal(
                    "turned off the reaping of orphans (PR_SET_CHILD_SUBREAPER): processes it started may have \
                     left the twin's reach and still write its buffers"
                        .into(),
                ))
            }
            Ok(r) if r.first() == Some(&REPLY_ERROR) => {
                // Its pages' protection may be half changed: it goes.
                slot.take().unwrap().kill();
                Err(CallError::Internal(text_of(&r[1..])))
            }
            Ok(_) => {
                slot.take().unwrap().kill();
                Err(CallError::Internal("the call worker sent a malformed reply".into()))
            }
            Err(Wait::Gone) => {
                // SAFETY: the worker is gone; the context is ours.
                let ctx = unsafe { &mut *req.ctx };
                // Told now: reaping it frees the pool.
                if ctx.fault == 1 && crate::shm::is_pooled(ctx.fault_addr) {
                    ctx.fault = crate::native::FAULT_FREED;
                }
                match slot.take().unwrap().reap_ended() {
                    // SAFETY: the worker is gone; the context is ours to read.
                    Some(status) => Err(ended(status, unsafe { &*req.ctx })),
                    None => Err(CallError::Internal(
                        "the call worker ended and could not be waited for (is SIGCHLD ignored?)".into(),
                    )),
                }
            }
            Err(Wait::Interrupted) => {
                slot.take().unwrap().kill();
                Err(CallError::Interrupted)
            }
            Err(_) => {
                slot.take().unwrap().kill();
                Err(CallError::Timeout(timeout))
            }
        };
    }
    unreachable!("the loop returns on its last attempt")
}

/// How the worker's exit status reads as the end of a call.
fn ended(status: libc::c_int, ctx: &Ctx) -> CallError {
    if libc::WIFEXITED(status) {
        return match libc::WEXITSTATUS(status) {
            70 if ctx.failed != 0 => {
                let e = &ctx.error;
                let n = e.iter().position(|b| *b == 0).unwrap_or(e.len());
                CallError::Misuse(String::from_utf8_lossy(&e[..n]).into_owned())
            }
            code => CallError::Exit(code),
        };
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        if ctx.fault == 2 {
            return CallError::StackOverflow;
        }
        // SAFETY: strsignal returns a static string for any number.
        let name = unsafe { std::ffi::CStr::from_ptr(libc::strsignal(sig)) }.to_string_lossy().into_owned();
        return CallError::Signal(format!("signal {sig} ({name})"));
    }
    CallError::Internal(format!("the call worker ended with status {status:#x}"))
}

pub(crate) fn text_of(words: &[u64]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let n = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..n]).into_owned()
}

pub(crate) fn words_of_text(s: &str) -> Vec<u64> {
    words_of_bytes(s.as_bytes())
}

/// The bytes, a NUL, padded to whole words.
fn words_of_bytes(s: &[u8]) -> Vec<u64> {
    let mut b = s.to_vec();
    b.push(0);
    b.resize(b.len().div_ceil(8) * 8, 0);
    b.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn encode_call(r: &Request) -> Vec<u64> {
    let mut m = vec![MSG_CALL, r.ctx as u64];
    m.extend(r.words);
    m.extend(r.floats);
    m.extend(words_of_bytes(r.library.as_os_str().as_encoded_bytes()));
    m.extend(words_of_text(r.symbol));
    m
}

impl Worker {
    /// Forks a worker. It inherits every buffer mapped now, so their
    /// descriptors can go.
    fn spawn() -> Result<Worker, CallError> {
        let internal = |what: &str| CallError::Internal(format!("{what}: {}", std::io::Error::last_os_error()));
        let bell = Doorbell::new().map_err(CallError::Internal)?;
        let mut fds = [0 as RawFd; 2];
        // SAFETY: a socket pair for our own use.
        if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0, fds.as_mut_ptr()) }
            != 0
        {
            return Err(internal("socketpair"));
        }
        // SAFETY: both descriptors were just created and are ours.
        let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let mut reg = crate::shm::lock();
        // Reserved before the first fork: see `shm/arena.rs`.
        reg.arena.ensure().map_err(CallError::Internal)?;
        let chunks = reg.arena.chunks();
        // SAFETY: plain query.
        let parent = unsafe { libc::getpid() };
        let (sock, page, keep) = (theirs.as_raw_fd(), bell.page_addr(), ours.as_raw_fd());
        let read_only: Vec<(u64, u64)> =
            reg.live.values().filter(|m| m.read_only).map(|m| (m.base + m.data_off, m.data_len)).collect();
        let fenced = reg.pooled_serials();
        let pooled: Vec<(u64, u64)> = reg
            .live
            .iter()
            .filter(|(s, _)| fenced.contains(s))
            .map(|(_, m)| (m.base + m.data_off, m.data_len))
            .collect();
        let pid = fork_worker(move || {
            // SAFETY: in the fresh child, which only serves calls.
            unsafe {
                libc::close(keep);
                serve::protect(&read_only, libc::PROT_READ);
                serve::protect(&pooled, libc::PROT_NONE);
                serve::serve(sock, &Doorbell::inherited(page), parent, &chunks)
            }
        });
        if pid < 0 {
            return Err(internal("fork"));
        }
        drop(theirs);
        // So that the group exists before any kill (the child does it too).
        // SAFETY: our own child.
        unsafe { libc::setpgid(pid, pid) };
        let mapped = reg.live.iter().map(|(serial, m)| (*serial, (m.base, m.len))).collect();
        crate::shm::worker_started(&mut reg);
        Ok(Worker {
            pid,
            owner: parent,
            libraries: std::collections::HashMap::new(),
            sock: ours,
            bell,
            mapped,
            fenced,
            generation: reg.generation,
            chunks: reg.arena.chunk_count(),
        })
    }

    /// Unmaps in the worker what the interpreter has freed and maps what it
    /// has allocated since (an error: an address is taken in the worker, or
    /// it did not answer).
    fn sync_mappings(&mut self) -> Result<(), Stale> {
        let mut reg = crate::shm::lock();
        if reg.generation == self.generation {
            return Ok(());
        }
        if reg.arena.chunk_count() != self.chunks {
            return Err(Stale::Refork);
        }
        let gone: Vec<(u64, u64)> =
            self.mapped.iter().filter(|(s, _)| !reg.live.contains_key(s)).map(|(_, m)| *m).collect();
        self.mapped.retain(|s, _| reg.live.contains_key(s));
        let mut new: Vec<(u64, [u64; 5], OwnedFd)> = Vec::new();
        for (serial, m) in reg.live.iter_mut() {
            if self.mapped.contains_key(serial) {
                continue;
            }
            // Every buffer without a descriptor is mapped in every worker
            // forked since it was made.
            let Some(fd) = m.fd.take() else { return Err(Stale::Refork) };
            new.push((*serial, [m.base, m.len, m.data_off, m.data_len, m.read_only as u64], fd));
        }
        for _ in &new {
            crate::shm::took(&mut reg);
        }
        // Pooled mappings fenced off, reused ones opened again (after their
        // mapping, should they be new to the worker).
        let pooled = reg.pooled_serials();
        self.fenced.retain(|s| reg.live.contains_key(s));
        let mut protects: Vec<[u64; 3]> = Vec::new();
        for (serial, m) in &reg.live {
            let fence = pooled.contains(serial);
            if fence == self.fenced.contains(serial) {
                continue;
            }
            let prot = match (fence, m.read_only) {
                (true, _) => libc::PROT_NONE,
                (false, true) => libc::PROT_READ,
                (false, false) => libc::PROT_READ | libc::PROT_WRITE,
            };
            protects.push([m.base + m.data_off, m.data_len, prot as u64]);
            if fence {
                self.fenced.insert(*serial);
            } else {
                self.fenced.remove(serial);
            }
        }
        self.generation = reg.generation;
        drop(reg);
        let mut unmaps = gone.as_slice();
        let mut maps = new.as_slice();
        let mut prots = protects.as_slice();
        let failed = |e: String| Stale::Failed(e);
        while !unmaps.is_empty() || !maps.is_empty() || !prots.is_empty() {
            // Every range is reserved again before any is mapped: a new
            // buffer may lie where a freed one was.
            let (u, rest_u) = unmaps.split_at(unmaps.len().min(256));
            let (m, rest_m) =
                if rest_u.is_empty() { maps.split_at(maps.len().min(FDS_PER_MSG)) } else { (&[][..], maps) };
            let room = (doorbell::PAYLOAD - 4 - 2 * u.len() - 5 * m.len()) / 3;
            let (p, rest_p) = if rest_u.is_empty() && rest_m.is_empty() {
                prots.split_at(prots.len().min(room))
            } else {
                (&[][..], prots)
            };
            let mut msg = vec![MSG_MAP, u.len() as u64, m.len() as u64, p.len() as u64];
            for (base, len) in u {
                msg.extend([*base, *len]);
            }
            for (_, w, _) in m {
                msg.extend(w);
            }
            for w in p {
                msg.extend(w);
            }
            // The descriptors go over the socket, the request on the page.
            let fds: Vec<RawFd> = m.iter().map(|(_, _, fd)| fd.as_raw_fd()).collect();
            if !fds.is_empty() {
                send_fds(self.sock.as_raw_fd(), &fds)
                    .map_err(|e| failed(format!("cannot reach the call worker: {e}")))?;
            }
            let seq = self.bell.post(&msg).map_err(failed)?;
            match self.wait(seq, Some(Instant::now() + Duration::from_secs(10))) {
                Ok(r) if r.first() == Some(&REPLY_OK) => {}
                Ok(r) if r.first() == Some(&REPLY_COLLISION) => {
                    return Err(failed("cannot map the twin's buffers into the call worker".into()));
                }
                _ => return Err(failed("the call worker did not take the twin's buffers".into())),
            }
            for (serial, w, _) in m {
                self.mapped.insert(*serial, (w[0], w[1]));
            }
            unmaps = rest_u;
            maps = rest_m;
            prots = rest_p;
        }
        Ok(())
    }

    /// The reply to request `seq`, or how the wait ended without one.
    fn wait(&self, seq: u32, deadline: Option<Instant>) -> Result<Vec<u64>, Wait> {
        match self.bell.wait_done(seq, deadline, || self.exited()) {
            Wait::Done => Ok(self.bell.reply()),
            other => Err(other),
        }
    }

    /// Whether the worker has ended (it stays a zombie until reaped, so its
    /// pid, which names its process group, cannot be reused meanwhile).
    fn exited(&self) -> bool {
        // SAFETY: peeking at our own child.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(libc::P_PID, self.pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT)
        };
        r != 0 || unsafe { info.si_pid() } == self.pid
    }

    /// Ends the worker's process group (whatever the last call left behind
    /// dies with it) and reaps it; returns its status (None if it was
    /// reaped elsewhere) and whether all its descendants were stopped.
    fn reap(self) -> (Option<libc::c_int>, bool) {
        let mut status = 0;
        crate::shm::worker_stopped();
        let stopped = kill_descendants(self.pid);
        // SAFETY: the worker's own group, then reaping our child.
        let r = unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
            libc::waitpid(self.pid, &mut status, 0)
        };
        ((r == self.pid).then_some(status), stopped)
    }

    /// Ends a worker that may be running a call; returns whether every
    /// process it started is gone. Stopped first, so it neither starts nor
    /// reaps anything while its tree is killed: killed before its tree, its
    /// children would go to another reaper, out of our sight, still sharing
    /// the twin's buffers (which the pool and the next runs reuse).
    fn kill(self) -> bool {
        // SAFETY: our own child (also if it left its group).
        unsafe { libc::kill(self.pid, libc::SIGSTOP) };
        let (_, stopped) = self.reap();
        if !stopped {
            forget_shared();
        }
        stopped
    }

    /// Reaps a worker that ended during a call. Processes the call started
    /// went to another reaper when it ended, out of our sight.
    fn reap_ended(self) -> Option<libc::c_int> {
        let (status, _) = self.reap();
        forget_shared();
        status
    }
}

/// Processes we could not stop may write the memory of any buffer made so
/// far: none of it is reused (the pool and the runs' spare parts are freed,
/// and the buffers live now are freed, not pooled, when they go), so later
/// buffers are fresh mappings the leftovers do not share.
fn forget_shared() {
    crate::shm::taint_all();
    crate::native::drop_spares();
}

/// Kills every live descendant of `pid` and waits until they have ended (a
/// killed process may run on for a moment on another core; a zombie has
/// given up its memory). The worker is its implementations' subreaper, so
/// whatever they start — even a daemon that left the worker's process group
/// and session by `setsid` — is in its tree until the worker reaps it;
/// killing the group alone would miss those. False if some could not be
/// stopped (a tree growing faster than it is killed, or a process stuck in
/// the kernel for seconds).
fn kill_descendants(pid: libc::pid_t) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    for round in 0.. {
        let mut live = Vec::new();
        let mut todo = vec![pid];
        while let Some(p) = todo.pop() {
            for c in children(p) {
                todo.push(c);
                if !is_zombie(c) {
                    live.push(c);
                }
            }
            if live.len() > 100_000 {
                break;
            }
        }
        if live.is_empty() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        for c in live {
            // SAFETY: a process of our worker's tree (pids of zombies, which
            // are not reused while unreaped, are left out).
            unsafe { libc::kill(c, libc::SIGKILL) };
        }
        if round >= 64 {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    unreachable!("the rounds end by return")
}

/// The children of `pid` (all its threads'), from /proc.
fn children(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return out };
    for t in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(text.split_whitespace().filter_map(|w| w.parse::<libc::pid_t>().ok()));
        }
    }
    out
}

fn is_zombie(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| rest.starts_with('Z')))
        .unwrap_or(true)
}

/// Forks and runs `child` in the child. The worker dies with the thread that
/// forked it (`PR_SET_PDEATHSIG` follows the thread), so the fork happens on
/// the main thread, which lives as long as the process, or else on a thread
/// of our own that never ends.
fn fork_worker(child: impl FnOnce() + Send + 'static) -> libc::pid_t {
    // SAFETY: plain queries.
    let main = unsafe { libc::gettid() == libc::getpid() };
    let fork = move || {
        // SAFETY: the child runs only `child`, which never returns, takes no
        // lock the parent may hold, and ends with `_exit`.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            child();
            // SAFETY: `child` never returns; this only satisfies the types.
            unsafe { libc::_exit(0) };
        }
        pid
    };
    if main {
        return fork();
    }
    // SAFETY: plain query.
    let me = unsafe { libc::getpid() };
    let mut spawner = SPAWNER.lock();
    // A process forked from ours (on a thread other than its main one)
    // inherits the spawner but not its thread: it needs one of its own.
    if spawner.as_ref().is_none_or(|(pid, _)| *pid != me) {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        // The child runs on this thread's stack: as large as a main thread's.
        // Without the thread the receiver is gone, sends fail, and the call
        // reports that the worker could not be forked.
        let _ = std::thread::Builder::new().name("hivm-twin-spawner".into()).stack_size(8 << 20).spawn(move || {
            for (job, reply) in rx {
                let _ = reply.send(job());
            }
        });
        // Forgotten, not dropped: an inherited sender belongs to the parent's channel.
        if let Some(old) = spawner.replace((me, tx)) {
            std::mem::forget(old);
        }
    }
    let (reply_tx, reply_rx) = std::sync::mpsc::channel();
    let sent = spawner.as_ref().expect("set above").1.send((Box::new(fork), reply_tx));
    drop(spawner);
    if sent.is_err() {
        return -1;
    }
    reply_rx.recv().unwrap_or(-1)
}

/// Sends descriptors (with one byte of data, which SOCK_SEQPACKET needs).
fn send_fds(sock: RawFd, fds: &[RawFd]) -> std::io::Result<()> {
    let byte = [0u8; 1];
    let mut iov = libc::iovec { iov_base: byte.as_ptr() as *mut libc::c_void, iov_len: 1 };
    // SAFETY: size arithmetic of the CMSG macros.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of_val(fds) as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: a msghdr over our buffers; the control message is laid out by
    // the CMSG macros.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        msg.msg_controllen = space as _;
        let c = libc::CMSG_FIRSTHDR(&msg);
        (*c).cmsg_level = libc::SOL_SOCKET;
        (*c).cmsg_type = libc::SCM_RIGHTS;
        (*c).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(fds) as u32) as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(c) as *mut RawFd, fds.len());
        loop {
            if libc::sendmsg(sock, &msg, libc::MSG_NOSIGNAL) >= 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}
