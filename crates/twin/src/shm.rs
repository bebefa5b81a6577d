//! Every live twin buffer, as the call worker needs to see them. Buffers are
//! memfd mappings: a worker forked before a buffer existed maps it later at
//! the same address from its file descriptor, so pointers in memref
//! descriptors mean the same thing on both sides.
//!
//! A buffer's descriptor is kept only while a worker lives that does not
//! have the mapping yet: a worker forked later inherits every live mapping,
//! so no descriptor is needed then. Past `MAX_HELD` descriptors they are
//! all dropped and the next call forks a fresh worker instead, so a run
//! with many buffers never runs out of descriptors.

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;

/// One shared mapping: `len` bytes at `base`, of which `data_len` bytes from
/// `base + data_off` are readable and writable (the rest are guard pages).
pub struct Mapping {
    pub base: u64,
    pub len: u64,
    pub data_off: u64,
    pub data_len: u64,
    pub fd: Option<OwnedFd>,
    /// The cube memories (L1, L0A/B/C): read-only in the call worker, so an
    /// implementation writing them faults, unless a call opens an operand
    /// there (`native::Ctx::open`).
    pub read_only: bool,
}

#[derive(Default)]
pub struct Registry {
    next: u64,
    /// Whether a call worker lives (else new buffers keep no descriptor).
    worker: bool,
    /// Descriptors held.
    held: usize,
    /// Bumped whenever a buffer comes or goes.
    pub generation: u64,
    pub live: BTreeMap<u64, Mapping>,
}

static REGISTRY: parking_lot::Mutex<Registry> =
    parking_lot::const_mutex(Registry { next: 0, worker: false, held: 0, generation: 0, live: BTreeMap::new() });

/// Descriptors kept for a live worker, at most.
const MAX_HELD: usize = 256;

/// Locks the registry (every update is a single insert or remove, so a
/// holder that panicked leaves it consistent).
pub fn lock() -> parking_lot::MutexGuard<'static, Registry> {
    REGISTRY.lock()
}

/// In a forked child: a registry lock held by a thread of the parent is
/// released (that thread is not in the child).
pub(crate) fn after_fork_in_child() {
    // SAFETY: called from the child's atfork handler, single-threaded.
    unsafe {
        if REGISTRY.is_locked() {
            REGISTRY.force_unlock();
        }
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

/// Forgets a mapping (closing its descriptor if still held).
pub fn unregister(serial: u64) {
    let mut r = lock();
    r.generation += 1;
    if r.live.remove(&serial).is_some_and(|m| m.fd.is_some()) {
        r.held -= 1;
    }
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
    fn drop_descriptors(&mut self) {
        for m in self.live.values_mut() {
            m.fd = None;
        }
        self.held = 0;
    }
}

/// A descriptor was handed to the worker.
pub fn took(r: &mut Registry) {
    r.held = r.held.saturating_sub(1);
}
