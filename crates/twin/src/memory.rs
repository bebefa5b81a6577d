//! The twin's memories. Every buffer is a shared memfd mapping, so that
//! implementations running in the call worker (another process, see
//! `worker.rs`) write where the interpreter reads. Global memory is a set of host buffers; each block gets its own
//! emulated on-chip memories (UB, L1, L0A/B/C) sized from the target.

use std::fmt;
use std::os::fd::{AsRawFd, FromRawFd};

/// Where a buffer lives, as `#hivm.address_space` names it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Space {
    Gm,
    Ub,
    L1,
    L0a,
    L0b,
    L0c,
}

impl Space {
    /// L0A, L0B and L0C, which only the cube unit's own operations reach.
    pub fn is_l0(self) -> bool {
        matches!(self, Space::L0a | Space::L0b | Space::L0c)
    }

    /// The cube unit's memories, which only cube operations write.
    pub fn is_cube(self) -> bool {
        matches!(self, Space::L1 | Space::L0a | Space::L0b | Space::L0c)
    }

    pub fn from_attr(name: &str) -> Option<Space> {
        Some(match name {
            "gm" | "zero" => Space::Gm,
            "ub" => Space::Ub,
            "cbuf" => Space::L1,
            "ca" => Space::L0a,
            "cb" => Space::L0b,
            "cc" => Space::L0c,
            _ => return None,
        })
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Space::Gm => "GM",
            Space::Ub => "UB",
            Space::L1 => "L1",
            Space::L0a => "L0A",
            Space::L0b => "L0B",
            Space::L0c => "L0C",
        })
    }
}

/// A shared, zero-filled mapping, placed so that it ends (to within 32
/// bytes) where an inaccessible guard page begins, with another guard page
/// before it: implementations that run off a buffer fault instead of
/// silently corrupting its neighbour. The slack around the buffer inside its
/// pages holds a canary pattern, so writes just outside it are found too.
/// Its mapping comes from, and goes back to, `shm`'s pool when it can.
pub struct Buffer {
    ptr: *mut u8,
    len: usize,
    base: *mut u8,
    map_len: usize,
    pub space: Space,
    /// Its entry in `shm`'s registry.
    serial: u64,
    /// Read-only in the call worker unless a call opens it.
    read_only: bool,
    /// False for another core's view of a buffer (`Memory::adopt`), which
    /// its owner releases.
    owned: bool,
}

/// A buffer as another thread's `Memory` can adopt it (plain addresses).
#[derive(Clone, Copy)]
pub struct SharedBuf {
    ptr: u64,
    len: usize,
    base: u64,
    map_len: usize,
    space: Space,
    serial: u64,
    read_only: bool,
}

impl SharedBuf {
    /// A buffer that is a view of this one (its owner releases it).
    fn view(self) -> Buffer {
        Buffer {
            ptr: self.ptr as *mut u8,
            len: self.len,
            base: self.base as *mut u8,
            map_len: self.map_len,
            space: self.space,
            serial: self.serial,
            read_only: self.read_only,
            owned: false,
        }
    }
}

// SAFETY: a buffer owns its mapping; moving it to another thread moves
// that ownership (the twin's `Shared` buffers are kept for reuse across
// threads, see `native::Shared`).
unsafe impl Send for Buffer {}

const PAGE: usize = 4096;
const CANARY: u8 = 0xA5;
/// Buffers up to this size are cleared by writing zeros over them (they
/// stay resident, so their next user takes no page faults); larger ones hand
/// their pages back. (Zeroing only the resident pages would be cheaper still,
/// but a shared page out on swap reads as not resident and would keep its
/// bytes.)
const ZERO_IN_PLACE: usize = 256 << 10;

impl Buffer {
    /// The number of its mapping in the registry (`shm.rs`).
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// A buffer the call worker may write only where a call opens it (GM
    /// and the cube memories: see `interp/write_guard.rs`), or freely (UB).
    pub fn new(len: usize, space: Space) -> Result<Buffer, String> {
        Buffer::with_access(len, space, space == Space::Ub)
    }

    /// A buffer the call worker may always write (`worker_writes`), or
    /// only where a call opens it.
    pub fn with_access(len: usize, space: Space, worker_writes: bool) -> Result<Buffer, String> {
        let pages = len.max(1).div_ceil(PAGE);
        let data = pages * PAGE;
        let map_len = data + 2 * PAGE;
        let read_only = !worker_writes;
        let at = |base: *mut u8| {
            // SAFETY: the buffer's start lies inside the data pages.
            unsafe { base.add(PAGE + data - len.div_ceil(32) * 32) }
        };
        if let Some(p) = crate::shm::reuse(pages as u64, read_only) {
            let base = p.base as *mut u8;
            let mut b = Buffer { ptr: at(base), len, base, map_len, space, serial: p.serial, read_only, owned: true };
            // The last user's bytes must not show through.
            b.clear();
            return Ok(b);
        }
        let fail = |what: &str| {
            format!("cannot allocate {len} bytes of {space} memory ({what}: {})", std::io::Error::last_os_error())
        };
        let base = crate::shm::place(map_len as u64).map_err(|e| format!("cannot allocate {len} bytes: {e}"))?;
        let mapped = (|| {
            // SAFETY: creating a file descriptor we own from here on.
            let fd = unsafe { libc::memfd_create(c"hivm-twin".as_ptr(), libc::MFD_CLOEXEC) };
            if fd < 0 {
                return Err(fail("memfd_create"));
            }
            // SAFETY: fd was just created and is owned by nobody else.
            let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) };
            // SAFETY: sizing our own memfd; the pages are only allocated when touched.
            if unsafe { libc::ftruncate(fd.as_raw_fd(), data as libc::off_t) } != 0 {
                return Err(fail("ftruncate"));
            }
            let want = (base + PAGE as u64) as *mut libc::c_void;
            // SAFETY: over our own reservation (`place`), between its guard pages.
            let got = unsafe {
                libc::mmap(
                    want,
                    data,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_NORESERVE | libc::MAP_FIXED,
                    fd.as_raw_fd(),
                    0,
                )
            };
            if got != want {
                return Err(fail("mmap"));
            }
            Ok(fd)
        })();
        let fd = match mapped {
            Ok(fd) => fd,
            Err(e) => {
                crate::shm::unplace(base, map_len as u64);
                return Err(e);
            }
        };
        let serial = crate::shm::register(crate::shm::Mapping {
            base,
            len: map_len as u64,
            data_off: PAGE as u64,
            data_len: data as u64,
            fd: Some(fd),
            read_only,
        });
        let base = base as *mut u8;
        let b = Buffer { ptr: at(base), len, base, map_len, space, serial, read_only, owned: true };
        // SAFETY: the slack lies in the data pages, outside the buffer.
        unsafe {
            let (before, after) = b.slack();
            std::ptr::write_bytes(before.0, CANARY, before.1);
            std::ptr::write_bytes(after.0, CANARY, after.1);
        }
        Ok(b)
    }

    /// Zero-fills the buffer and renews its canaries. Small buffers are
    /// zeroed in place (a pooled buffer is usually reused by a run of the
    /// same kernel, which touches the same pages); larger ones hand their
    /// pages back, so the cost is the pages that were touched, not the size.
    pub fn clear(&mut self) {
        let data = self.map_len - 2 * PAGE;
        // SAFETY (block): the data pages of this mapping, readable and
        // writable here; MADV_REMOVE on a shared memfd mapping frees them
        // and later reads see zeros.
        unsafe {
            let start = self.base.add(PAGE);
            let handed_back =
                data > ZERO_IN_PLACE && libc::madvise(start as *mut libc::c_void, data, libc::MADV_REMOVE) == 0;
            if !handed_back {
                std::ptr::write_bytes(start, 0, data);
            }
            let (before, after) = self.slack();
            std::ptr::write_bytes(before.0, CANARY, before.1);
            std::ptr::write_bytes(after.0, CANARY, after.1);
        }
    }

    /// The bytes of the data pages before and after the buffer.
    fn slack(&self) -> ((*mut u8, usize), (*mut u8, usize)) {
        let data_start = self.base as usize + PAGE;
        let data_end = self.base as usize + self.map_len - PAGE;
        let (s, e) = (self.ptr as usize, self.ptr as usize + self.len);
        ((data_start as *mut u8, s - data_start), (e as *mut u8, data_end - e))
    }

    /// How many bytes just before and just after the buffer were written
    /// (the canary no longer holds there), if any.
    pub fn overwritten_slack(&self) -> Option<(usize, usize)> {
        let ((b, bl), (a, al)) = self.slack();
        // SAFETY: both ranges are inside the readable data pages.
        let (before, after) = unsafe { (std::slice::from_raw_parts(b, bl), std::slice::from_raw_parts(a, al)) };
        if intact(before) && intact(after) {
            return None;
        }
        let under = before.iter().position(|x| *x != CANARY).map_or(0, |i| bl - i);
        let over = after.iter().rposition(|x| *x != CANARY).map_or(0, |i| i + 1);
        match (under, over) {
            (0, 0) => None,
            u => Some(u),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The buffer's addresses, for a view of it on another thread.
    pub fn share(&self) -> SharedBuf {
        SharedBuf {
            ptr: self.ptr as u64,
            len: self.len,
            base: self.base as u64,
            map_len: self.map_len,
            space: self.space,
            serial: self.serial,
            read_only: self.read_only,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn addr(&self) -> u64 {
        self.ptr as u64
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `len` readable bytes start at ptr and live as long as self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above; &mut self gives exclusive access on this side.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

/// Whether every byte is the canary; checked after every implementation
/// call over every buffer, so written to vectorise (no early exit).
fn intact(bytes: &[u8]) -> bool {
    const WORD: u64 = u64::from_ne_bytes([CANARY; 8]);
    let chunks = bytes.chunks_exact(64);
    let tail = chunks.remainder().iter().fold(0u8, |acc, b| acc | (b ^ CANARY));
    let body = chunks.fold(0u64, |acc, c| {
        c.chunks_exact(8).fold(acc, |acc, w| acc | (u64::from_ne_bytes(w.try_into().unwrap()) ^ WORD))
    });
    body == 0 && tail == 0
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if !self.owned {
            return;
        }
        crate::shm::release(crate::shm::Pooled {
            serial: self.serial,
            base: self.base as u64,
            len: self.map_len as u64,
            pages: ((self.map_len - 2 * PAGE) / PAGE) as u64,
            read_only: self.read_only,
        });
    }
}

pub type BufId = u32;

/// On-chip capacities in bytes.
#[derive(Clone, Copy, Debug)]
pub struct Capacities {
    pub ub: usize,
    pub l1: usize,
    pub l0a: usize,
    pub l0b: usize,
    pub l0c: usize,
}

impl Capacities {
    /// The target's sizes; 910B (the default of upstream without a target) otherwise.
    pub fn for_target(target: Option<&str>) -> Capacities {
        use hivm_dialects::hacc::targets;
        let g = target.and_then(targets::target).map(|t| t.generation).unwrap_or(&targets::ASCEND_910B);
        let b = |bits: u64| (bits / 8) as usize;
        Capacities { ub: b(g.ub_bits), l1: b(g.l1_bits), l0a: b(g.l0a_bits), l0b: b(g.l0b_bits), l0c: b(g.l0c_bits) }
    }

    pub fn of(&self, space: Space) -> usize {
        match space {
            Space::Gm => usize::MAX,
            Space::Ub => self.ub,
            Space::L1 => self.l1,
            Space::L0a => self.l0a,
            Space::L0b => self.l0b,
            Space::L0c => self.l0c,
        }
    }
}

/// All buffers of a run.
#[derive(Default)]
pub struct Memory {
    bufs: Vec<Option<Buffer>>,
}

impl Memory {
    pub fn alloc(&mut self, len: usize, space: Space) -> Result<BufId, String> {
        self.bufs.push(Some(Buffer::new(len, space)?));
        Ok((self.bufs.len() - 1) as BufId)
    }

    pub fn get(&self, id: BufId) -> &Buffer {
        self.bufs[id as usize].as_ref().expect("a freed buffer is never used again")
    }

    pub fn get_mut(&mut self, id: BufId) -> &mut Buffer {
        self.bufs[id as usize].as_mut().expect("a freed buffer is never used again")
    }

    /// Frees a buffer (its mapping goes to the pool); its id stays taken and must not be used again.
    pub fn free(&mut self, id: BufId) {
        self.bufs[id as usize] = None;
    }

    pub fn buffers(&self) -> impl Iterator<Item = &Buffer> {
        self.bufs.iter().flatten()
    }

    /// Live buffers with their ids.
    pub fn buffers_with_ids(&self) -> impl Iterator<Item = (BufId, &Buffer)> {
        self.bufs.iter().enumerate().filter_map(|(i, b)| b.as_ref().map(|b| (i as BufId, b)))
    }

    /// Every buffer, for `adopt` on another thread.
    pub fn share(&self) -> Vec<Option<SharedBuf>> {
        self.bufs.iter().map(|b| b.as_ref().map(Buffer::share)).collect()
    }

    /// A view of another thread's buffer under a new id.
    pub fn adopt_one(&mut self, b: SharedBuf) -> BufId {
        self.bufs.push(Some(b.view()));
        (self.bufs.len() - 1) as BufId
    }

    /// A memory whose first buffers are views of `shared` under the same
    /// ids (the cores of a mix kernel see one global memory). The owner
    /// must outlive it.
    pub fn adopt(shared: &[Option<SharedBuf>]) -> Memory {
        Memory { bufs: shared.iter().map(|b| b.map(SharedBuf::view)).collect() }
    }

    /// Ids handed out so far (freed ones included).
    pub fn next_id(&self) -> BufId {
        self.bufs.len() as BufId
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A freed buffer's mapping serves the next one of its size and
    /// protection, zeroed, with fresh canaries; another protection does not
    /// get it. (An unusual size, so other tests' buffers do not interfere.)
    #[test]
    fn a_pooled_mapping_is_reused_zeroed() {
        let len = 37 * PAGE + 5;
        let mut a = Buffer::new(len, Space::Ub).unwrap();
        a.bytes_mut().fill(0x5C);
        // SAFETY: the data page before the buffer: its slack.
        unsafe { *((a.addr() - 1) as *mut u8) = 0 };
        let (addr, serial) = (a.addr(), a.serial);
        drop(a);
        let cube = Buffer::new(len, Space::L1).unwrap();
        assert_ne!(cube.serial, serial, "a read-only buffer got a writable mapping");
        let b = Buffer::new(len - 3, Space::Ub).unwrap();
        assert_eq!(b.serial, serial, "the pooled mapping was not reused");
        assert_eq!(b.addr(), addr, "both lengths round to the same 32 bytes");
        assert!(b.bytes().iter().all(|x| *x == 0), "the last user's bytes show through");
        assert_eq!(b.overwritten_slack(), None);
    }
}
