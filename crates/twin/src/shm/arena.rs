//! The address range every twin buffer lives in. It is reserved (mapped
//! inaccessible, no memory behind it) before any call worker is forked, so
//! the worker inherits the reservation and nothing of its own — a loaded
//! library, a malloc arena, a thread's stack — can ever be placed there:
//! a buffer made later maps at the same address in both processes without
//! a possible collision. Buffers are mapped over the reservation with
//! `MAP_FIXED`; a freed one is reserved again, never unmapped.

use std::collections::{BTreeMap, BTreeSet};

const PAGE: u64 = 4096;
/// Where the first range is asked for: 32 TiB (see `grow`).
const HINT: u64 = 0x2000_0000_0000;
/// The first reservation, halved until the system grants it (address
/// space only: inaccessible, unreserved pages cost no memory).
const FIRST: u64 = 4 << 40;
/// Smallest reservation tried before giving up.
const LEAST: u64 = 1 << 30;

pub struct Arena {
    /// Reserved ranges: start -> length.
    chunks: BTreeMap<u64, u64>,
    /// Free ranges: start -> length, and (length, start) for a best fit.
    free: BTreeMap<u64, u64>,
    by_size: BTreeSet<(u64, u64)>,
}

impl Default for Arena {
    fn default() -> Arena {
        Arena::new()
    }
}

impl Arena {
    pub const fn new() -> Arena {
        Arena { chunks: BTreeMap::new(), free: BTreeMap::new(), by_size: BTreeSet::new() }
    }

    /// How many ranges are reserved: a worker forked with fewer lacks the
    /// later ones (and must be replaced before it maps a buffer there).
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    pub fn chunks(&self) -> Vec<(u64, u64)> {
        self.chunks.iter().map(|(s, l)| (*s, *l)).collect()
    }

    /// Reserves the first range if none is yet.
    pub fn ensure(&mut self) -> Result<(), String> {
        if self.chunks.is_empty() { self.grow(0) } else { Ok(()) }
    }

    /// `len` bytes (a whole number of pages) of free reserved space, the
    /// smallest free range that fits; reserves more if none does.
    pub fn take(&mut self, len: u64) -> Result<u64, String> {
        let len = len.div_ceil(PAGE) * PAGE;
        if self.fit(len).is_none() {
            self.grow(len)?;
        }
        let (size, start) = self.fit(len).ok_or("the twin's address range is exhausted")?;
        self.remove(start, size);
        if size > len {
            self.insert(start + len, size - len);
        }
        Ok(start)
    }

    /// Returns a range (already reserved again by the caller) to the free
    /// ranges, merged with its free neighbours.
    pub fn give(&mut self, start: u64, len: u64) {
        let (mut start, mut len) = (start, len.div_ceil(PAGE) * PAGE);
        if let Some((&s, &l)) = self.free.range(..start).next_back()
            && s + l == start
        {
            self.remove(s, l);
            start = s;
            len += l;
        }
        if let Some(&l) = self.free.get(&(start + len)) {
            self.remove(start + len, l);
            len += l;
        }
        self.insert(start, len);
    }

    fn fit(&self, len: u64) -> Option<(u64, u64)> {
        self.by_size.range((len, 0)..).next().copied()
    }

    fn insert(&mut self, start: u64, len: u64) {
        self.free.insert(start, len);
        self.by_size.insert((len, start));
    }

    fn remove(&mut self, start: u64, len: u64) {
        self.free.remove(&start);
        self.by_size.remove(&(len, start));
    }

    /// Reserves one more range, of at least `need` bytes.
    fn grow(&mut self, need: u64) -> Result<(), String> {
        let mut size = FIRST.max(need.div_ceil(PAGE) * PAGE);
        loop {
            let least = LEAST.max(need);
            // Far below where programs place their mappings (the top of the
            // address space, down) and above where they load: a program an
            // implementation runs (`system`, `posix_spawn`) inherits the
            // worker's filter, which refuses changes to this range, so it
            // must not want it. If the address is taken (or unsupported),
            // one of the kernel's choosing.
            let hint = self.chunks.iter().map(|(s, l)| s + l).max().unwrap_or(HINT);
            let anywhere = |addr: u64, flags: libc::c_int| {
                // SAFETY: a fresh inaccessible mapping; NOREPLACE never
                // replaces one.
                unsafe {
                    libc::mmap(
                        addr as *mut libc::c_void,
                        size as usize,
                        libc::PROT_NONE,
                        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | flags,
                        -1,
                        0,
                    )
                }
            };
            let mut p = anywhere(hint, libc::MAP_FIXED_NOREPLACE);
            if p != libc::MAP_FAILED && p as u64 != hint {
                // An old kernel took NOREPLACE as a plain hint and put it elsewhere.
                // SAFETY: the mapping just made.
                unsafe { libc::munmap(p, size as usize) };
                p = libc::MAP_FAILED;
            }
            if p == libc::MAP_FAILED {
                p = anywhere(0, 0);
            }
            if p != libc::MAP_FAILED {
                self.chunks.insert(p as u64, size);
                self.give(p as u64, size);
                return Ok(());
            }
            if size / 2 < least {
                return Err(format!(
                    "cannot reserve address space for the twin's buffers ({} bytes: {})",
                    size,
                    std::io::Error::last_os_error()
                ));
            }
            size /= 2;
        }
    }
}

/// Puts the reservation back over `[start, start + len)`, dropping what was
/// mapped there. Used by the interpreter's process and by the worker.
///
/// # Safety
/// The range lies inside the arena and nothing in it is in use.
pub unsafe fn reserve(start: u64, len: u64) -> bool {
    // SAFETY: the caller's promise: replacing a twin buffer's pages only.
    // (From the known site: the worker's filter refuses others.)
    unsafe {
        crate::raw_syscall::mmap_fixed(
            start,
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
        )
    }
}

/// Whether `[start, start + len)` lies inside one of `chunks`.
pub fn within(chunks: &[(u64, u64)], start: u64, len: u64) -> bool {
    chunks.iter().any(|(s, l)| start >= *s && start.checked_add(len).is_some_and(|e| e <= s + l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_best_fit_and_merges_freed_neighbours() {
        let mut a = Arena::new();
        a.chunks.insert(0x10_0000, 16 * PAGE);
        a.give(0x10_0000, 16 * PAGE);
        let x = a.take(2 * PAGE).unwrap();
        let y = a.take(3 * PAGE).unwrap();
        let z = a.take(PAGE).unwrap();
        assert_eq!((x, y, z), (0x10_0000, 0x10_0000 + 2 * PAGE, 0x10_0000 + 5 * PAGE));
        a.give(y, 3 * PAGE);
        // Best fit: the 1-page request goes into the 3-page hole, not the tail.
        assert_eq!(a.take(PAGE).unwrap(), y);
        a.give(y, PAGE);
        a.give(x, 2 * PAGE);
        a.give(z, PAGE);
        assert_eq!(a.free.len(), 1, "every range merged back: {:?}", a.free);
        assert_eq!(a.free.get(&0x10_0000), Some(&(16 * PAGE)));
    }
}
