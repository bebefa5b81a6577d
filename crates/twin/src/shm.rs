//! Every live twin buffer, as the call worker needs to see them. Buffers are
//! memfd mappings: a worker forked before a buffer existed maps it later at
//! the same address from its file descriptor, so pointers in memref
//! descriptors mean the same thing on both sides.
//!
//! A buffer's descriptor is kept only until some worker has the mapping
//! (sent over, or inherited by a fork): a worker that dies is replaced by a
//! fresh fork, which inherits every live mapping, so no descriptor is needed
//! again and a run with many buffers does not run out of descriptors.

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;
use std::sync::Mutex;

/// One shared mapping: `len` bytes at `base`, of which `data_len` bytes from
/// `base + data_off` are readable and writable (the rest are guard pages).
pub struct Mapping {
    pub base: u64,
    pub len: u64,
    pub data_off: u64,
    pub data_len: u64,
    pub fd: Option<OwnedFd>,
}

#[derive(Default)]
pub struct Registry {
    next: u64,
    /// Bumped whenever a buffer comes or goes.
    pub generation: u64,
    pub live: BTreeMap<u64, Mapping>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { next: 0, generation: 0, live: BTreeMap::new() });

/// Locks the registry (a poisoned lock still holds consistent data: every
/// update is a single insert or remove).
pub fn lock() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records a new mapping; returns its serial number.
pub fn register(m: Mapping) -> u64 {
    let mut r = lock();
    r.next += 1;
    r.generation += 1;
    let serial = r.next;
    r.live.insert(serial, m);
    serial
}

/// Forgets a mapping (closing its descriptor if still held).
pub fn unregister(serial: u64) {
    let mut r = lock();
    r.generation += 1;
    r.live.remove(&serial);
}
