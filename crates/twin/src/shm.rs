//! Every twin buffer's mapping, as the call worker needs to see them.
//! Buffers are memfd mappings placed in one reserved address range
//! (`arena.rs`): a worker forked before a buffer existed maps it later at
//! the same address from its file descriptor, so pointers in memref
//! descriptors mean the same thing on both sides, and since the worker
//! inherited the reservation, that address is always free there.
//!
//! A freed buffer's mapping is pooled (`release`): kept with its memfd,
//! its address and its place in the worker, and handed to the next buffer
//! of the same size and protection (`reuse`), so a run does not pay for
//! creating, sending and unmapping its dozen buffers every time. Pooled
//! mappings are not buffers: the interpreter's `Memory` no longer has them.
//!
//! A buffer's descriptor is kept only while a worker lives that does not
//! have the mapping yet: a worker forked later inherits every live mapping,
//! so no descriptor is needed then. Past `MAX_HELD` descriptors they are
//! all dropped and the next call forks a fresh worker instead, so a run
//! with many buffers never runs out of descriptors.

pub mod arena;

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;

use arena::Arena;

/// One shared mapping: `len` bytes at `base`, of which `data_len` bytes from
/// `base + data_off` are the memfd's (readable and writable); the rest are
/// guard pages (the arena's inaccessible reservation).
pub struct Mapping {
    pub base: u64,
    pub len: u64,
    pub data_off: u64,
    pub data_len: u64,
    pub fd: Option<OwnedFd>,
    /// Read-only in the call worker (the cube memories, global memory), so
    /// an implementation writing them faults, unless a call opens an
    /// operand there (`native::Ctx::open`).
    pub read_only: bool,
}

/// A free mapping kept for reuse; its `live` entry stays.
pub struct Pooled {
    pub serial: u64,
    pub base: u64,
    pub len: u64,
    /// Data pages.
    pub pages: u64,
    pub read_only: bool,
}

/// Bytes a pooled mapping may hold in memory: none for a large one, whose
/// pages are handed back when it is pooled.
fn held(p: &Pooled) -> u64 {
    if p.pages * PAGE > LARGE { 0 } else { p.pages * PAGE }
}

pub struct Registry {
    next: u64,
    /// Whether a call worker lives (else new buffers keep no descriptor).
    worker: bool,
    /// Descriptors held.
    held: usize,
    /// Bumped whenever a mapping comes or goes.
    pub generation: u64,
    /// Every mapping, of live buffers and pooled ones.
    pub live: BTreeMap<u64, Mapping>,
    pub arena: Arena,
    /// Oldest first.
    pool: Vec<Pooled>,
    /// Mappings with a lower serial may still be written by a process we
    /// could not stop: never pooled, freed when their buffer is.
    tainted_below: u64,
    pool_bytes: u64,
}

static REGISTRY: crate::fork_lock::ForkLock<Registry> = crate::fork_lock::ForkLock::new(Registry {
    next: 0,
    worker: false,
    held: 0,
    generation: 0,
    live: BTreeMap::new(),
    arena: Arena::new(),
    pool: Vec::new(),
    pool_bytes: 0,
    tainted_below: 0,
});

/// Descriptors kept for a live worker, at most.
const MAX_HELD: usize = 256;
/// What the pool keeps, at most: mappings, and bytes of memory. A pooled
/// mapping keeps the pages its last user touched until it is reused (and
/// zeroed then), except a large one (the call trace, big GM buffers),
/// zeroed as it is pooled: that costs one call, and its size is address
/// space only.
const POOL_COUNT: usize = 64;
const POOL_BYTES: u64 = 512 << 20;
const LARGE: u64 = 32 << 20;
const PAGE: u64 = 4096;

/// Locks the registry (every update leaves it consistent, so a holder
/// that panicked does no harm).
pub fn lock() -> crate::fork_lock::ForkGuard<'static, Registry> {
    REGISTRY.lock()
}

/// Registers, once, what a forked child must undo (see `after_fork_in_child`).
fn fork_safety() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn child() {
        after_fork_in_child();
    }
    // SAFETY: registering a handler that only touches our own registry.
    ONCE.call_once(|| unsafe {
        libc::pthread_atfork(None, None, Some(child));
    });
}

/// In a forked child: a registry lock held by a thread of the parent is
/// released (that thread is not in the child), and the pool is forgotten:
/// its mappings are shared with the parent, which may reuse them, so the
/// child must never hand them out (they stay mapped, unused).
fn after_fork_in_child() {
    // SAFETY: called from the child's atfork handler, single-threaded.
    unsafe {
        if REGISTRY.is_locked() {
            REGISTRY.reset_in_child();
        }
    }
    let mut r = REGISTRY.lock();
    // Forgotten, not freed: no allocator call in the child's handler.
    std::mem::forget(std::mem::take(&mut r.pool));
    r.pool_bytes = 0;
}

/// Address space for a new mapping of `len` bytes (inaccessible until
/// mapped over).
pub fn place(len: u64) -> Result<u64, String> {
    fork_safety();
    lock().arena.take(len)
}

/// Gives back what `place` returned, when no buffer came of it.
pub fn unplace(base: u64, len: u64) {
    let mut r = lock();
    // SAFETY: our own range, of no buffer.
    if unsafe { arena::reserve(base, len) } {
        r.arena.give(base, len);
    }
}

/// Records a new mapping; returns its serial number.
pub fn register(mut m: Mapping) -> u64 {
    let mut r = lock();
    r.next += 1;
    r.generation += 1;
    if !r.worker {
        m.fd = None;
    } else if m.fd.is_some() {
        r.held += 1;
        if r.held > MAX_HELD {
            // The worker will miss these and be replaced by a fresh fork.
            r.drop_descriptors();
            m.fd = None;
        }
    }
    let serial = r.next;
    r.live.insert(serial, m);
    serial
}

/// A pooled mapping of `pages` data pages and this protection, if any.
pub fn reuse(pages: u64, read_only: bool) -> Option<Pooled> {
    let mut r = lock();
    let i = r.pool.iter().rposition(|p| p.pages == pages && p.read_only == read_only)?;
    let p = r.pool.remove(i);
    r.pool_bytes -= held(&p);
    // The worker's view of it changes: open again (see `pooled_serials`).
    r.generation += 1;
    Some(p)
}

/// A buffer's mapping is free: pooled, evicting the oldest ones past the
/// bounds, or freed if it is too large to keep.
pub fn release(p: Pooled) {
    if is_tainted(p.serial) {
        lock().free(p);
        return;
    }
    let bytes = held(&p);
    if bytes == 0 {
        // SAFETY: the data pages of a mapping no buffer uses; MADV_REMOVE
        // frees them (and later reads see zeros).
        unsafe { libc::madvise((p.base + PAGE) as *mut libc::c_void, (p.pages * PAGE) as usize, libc::MADV_REMOVE) };
    }
    let mut r = lock();
    while r.pool.len() >= POOL_COUNT || r.pool_bytes + bytes > POOL_BYTES {
        let old = r.pool.remove(0);
        r.pool_bytes -= held(&old);
        r.free(old);
    }
    r.pool_bytes += bytes;
    r.pool.push(p);
    r.generation += 1;
}

/// Every mapping made so far may be written by a process that escaped our
/// control: none of them is handed out again — the pooled ones are freed
/// now, the live ones when their buffers go (a run that is failing frees
/// its buffers after this).
pub fn taint_all() {
    {
        let mut r = lock();
        r.tainted_below = r.next + 1;
    }
    trim();
}

/// Whether the mapping of serial `serial` must not be reused.
pub fn is_tainted(serial: u64) -> bool {
    serial < lock().tainted_below
}

/// Frees every pooled mapping (their memory goes back to the system).
pub fn trim() {
    let mut r = lock();
    let pool = std::mem::take(&mut r.pool);
    r.pool_bytes = 0;
    for p in pool {
        r.free(p);
    }
}

/// Whether `addr` lies in a pooled mapping: memory no buffer owns now.
pub fn is_pooled(addr: u64) -> bool {
    lock().pool.iter().any(|p| addr >= p.base && addr < p.base + p.len)
}

/// How many mappings the pool holds.
pub fn pooled() -> usize {
    lock().pool.len()
}

/// A worker was forked with the registry locked: it has every live
/// mapping, so no descriptor is needed any more.
pub fn worker_started(r: &mut Registry) {
    r.drop_descriptors();
    r.worker = true;
}

/// The worker ended: new buffers need no descriptor until the next one.
pub fn worker_stopped() {
    let mut r = lock();
    r.worker = false;
    r.drop_descriptors();
}

impl Registry {
    /// Pooled mappings: the call worker keeps them inaccessible, so that a
    /// pointer an implementation kept from an earlier call faults there
    /// (a located error) instead of writing memory no buffer owns.
    pub fn pooled_serials(&self) -> std::collections::HashSet<u64> {
        self.pool.iter().map(|p| p.serial).collect()
    }

    fn drop_descriptors(&mut self) {
        for m in self.live.values_mut() {
            m.fd = None;
        }
        self.held = 0;
    }

    /// Forgets a mapping (closing its descriptor if still held) and puts
    /// the reservation back over it.
    fn free(&mut self, p: Pooled) {
        self.generation += 1;
        if self.live.remove(&p.serial).is_some_and(|m| m.fd.is_some()) {
            self.held -= 1;
        }
        // SAFETY: the mapping of a buffer that is gone, inside the arena.
        // (Should the system refuse, the range stays out of use.)
        if unsafe { arena::reserve(p.base, p.len) } {
            self.arena.give(p.base, p.len);
        }
    }
}

/// A descriptor was handed to the worker.
pub fn took(r: &mut Registry) {
    r.held = r.held.saturating_sub(1);
}
