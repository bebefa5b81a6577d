//! The page through which the interpreter and the call worker hand each
//! other requests and replies. Each side spins briefly before sleeping on a
//! futex, so a call that follows another, or returns quickly, costs no
//! wake-up through the scheduler (tens of microseconds on a virtual machine).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Words a request or reply may take.
pub const PAYLOAD: usize = 2048;

#[repr(C)]
struct Page {
    /// Bumped by the interpreter for each request (a futex word).
    req: AtomicU32,
    /// Set to `req` by the worker when it has answered (a futex word).
    done: AtomicU32,
    worker_sleeps: AtomicU32,
    parent_sleeps: AtomicU32,
    len: AtomicU32,
    _pad: u32,
    payload: [u64; PAYLOAD],
}

/// How long each side spins before it sleeps.
const SPIN: Duration = Duration::from_micros(100);

/// A shared page, inherited by the forked worker.
pub struct Doorbell {
    page: *mut Page,
}

// SAFETY: all shared fields are atomics; the payload is written by one side
// at a time, handed over by release/acquire on `req` and `done`.
unsafe impl Send for Doorbell {}

pub enum Wait {
    Done,
    /// Nothing yet by the deadline, or `gone` said the worker ended.
    Timeout,
    Gone,
    /// The caller asked the run to stop (`crate::interrupt`).
    Interrupted,
}

impl Doorbell {
    pub fn new() -> Result<Doorbell, String> {
        // SAFETY: a fresh shared anonymous mapping, zero-filled.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                std::mem::size_of::<Page>(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(format!("cannot map the call worker's page: {}", std::io::Error::last_os_error()));
        }
        Ok(Doorbell { page: p as *mut Page })
    }

    /// The page's address, for a forked child to take over.
    pub fn page_addr(&self) -> usize {
        self.page as usize
    }

    /// The doorbell of a page mapped before this process was forked.
    ///
    /// # Safety
    /// `addr` is `page_addr()` of a doorbell mapped when the fork happened;
    /// the result must not be dropped (the child never returns).
    pub unsafe fn inherited(addr: usize) -> std::mem::ManuallyDrop<Doorbell> {
        std::mem::ManuallyDrop::new(Doorbell { page: addr as *mut Page })
    }

    fn page(&self) -> &Page {
        // SAFETY: mapped for the life of self.
        unsafe { &*self.page }
    }

    fn payload_ptr(&self) -> *mut u64 {
        // SAFETY: a field of the mapped page.
        unsafe { (&raw mut (*self.page).payload) as *mut u64 }
    }

    /// The interpreter: hands over a request; returns its number.
    pub fn post(&self, msg: &[u64]) -> Result<u32, String> {
        if msg.len() > PAYLOAD {
            return Err(format!("a call request of {} words (at most {PAYLOAD})", msg.len()));
        }
        let p = self.page();
        // SAFETY: the worker reads the payload only after `req` changes.
        unsafe { std::ptr::copy_nonoverlapping(msg.as_ptr(), self.payload_ptr(), msg.len()) };
        p.len.store(msg.len() as u32, Ordering::Relaxed);
        let seq = p.req.load(Ordering::Relaxed).wrapping_add(1);
        p.req.store(seq, Ordering::SeqCst);
        if p.worker_sleeps.load(Ordering::SeqCst) != 0 {
            futex_wake(&p.req);
        }
        Ok(seq)
    }

    /// The interpreter: waits for the answer to request `seq`, checking
    /// `gone` whenever it wakes without one.
    pub fn wait_done(&self, seq: u32, deadline: Option<Instant>, gone: impl Fn() -> bool) -> Wait {
        let p = self.page();
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            if p.done.load(Ordering::Acquire) == seq {
                return Wait::Done;
            }
            spins += 1;
            if !spins.is_multiple_of(64) {
                std::hint::spin_loop();
                continue;
            }
            yield_now();
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                return Wait::Timeout;
            }
            if now - start < SPIN {
                continue;
            }
            // A short slice: a worker that died says nothing.
            let mut slice = Duration::from_millis(10);
            if let Some(d) = deadline {
                slice = slice.min(d - now);
            }
            p.parent_sleeps.store(1, Ordering::SeqCst);
            let seen = p.done.load(Ordering::SeqCst);
            if seen != seq {
                futex_wait(&p.done, seen, Some(slice));
            }
            p.parent_sleeps.store(0, Ordering::SeqCst);
            if p.done.load(Ordering::Acquire) != seq && gone() {
                return Wait::Gone;
            }
            if p.done.load(Ordering::Acquire) != seq && crate::interrupt::requested() {
                return Wait::Interrupted;
            }
        }
    }

    /// The interpreter: the reply to the last request.
    pub fn reply(&self) -> Vec<u64> {
        let n = (self.page().len.load(Ordering::Acquire) as usize).min(PAYLOAD);
        // SAFETY: the worker wrote `n` words before setting `done`.
        unsafe { std::slice::from_raw_parts(self.payload_ptr(), n).to_vec() }
    }

    /// The worker: waits for a request after `last`; returns its number
    /// and words.
    pub fn wait_request(&self, last: u32) -> (u32, &[u64]) {
        let p = self.page();
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            let seq = p.req.load(Ordering::Acquire);
            if seq != last {
                let n = (p.len.load(Ordering::Relaxed) as usize).min(PAYLOAD);
                // SAFETY: written by the interpreter before `req` changed.
                return (seq, unsafe { std::slice::from_raw_parts(self.payload_ptr(), n) });
            }
            spins += 1;
            if !spins.is_multiple_of(64) {
                std::hint::spin_loop();
                continue;
            }
            yield_now();
            if Instant::now() - start < SPIN {
                continue;
            }
            p.worker_sleeps.store(1, Ordering::SeqCst);
            if p.req.load(Ordering::SeqCst) == last {
                futex_wait(&p.req, last, None);
            }
            p.worker_sleeps.store(0, Ordering::SeqCst);
        }
    }

    /// The worker: answers request `seq`.
    pub fn finish(&self, seq: u32, reply: &[u64]) {
        let p = self.page();
        let n = reply.len().min(PAYLOAD);
        // SAFETY: the interpreter reads the payload only after `done` changes.
        unsafe { std::ptr::copy_nonoverlapping(reply.as_ptr(), self.payload_ptr(), n) };
        p.len.store(n as u32, Ordering::Relaxed);
        p.done.store(seq, Ordering::SeqCst);
        if p.parent_sleeps.load(Ordering::SeqCst) != 0 {
            futex_wake(&p.done);
        }
    }
}

impl Drop for Doorbell {
    fn drop(&mut self) {
        // SAFETY: unmapping what `new` mapped.
        unsafe { libc::munmap(self.page as *mut libc::c_void, std::mem::size_of::<Page>()) };
    }
}

/// Lets the other side run when both share one CPU (cheap when alone).
fn yield_now() {
    // SAFETY: no arguments.
    unsafe { libc::sched_yield() };
}

fn futex_wait(word: &AtomicU32, expected: u32, timeout: Option<Duration>) {
    let ts = timeout.map(|t| libc::timespec { tv_sec: t.as_secs() as _, tv_nsec: t.subsec_nanos() as _ });
    let tsp = ts.as_ref().map_or(std::ptr::null(), |t| t as *const libc::timespec);
    // SAFETY: a futex wait on a word of the shared page (not private: two
    // processes use it).
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAIT, expected, tsp, std::ptr::null::<u32>(), 0)
    };
}

fn futex_wake(word: &AtomicU32) {
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX, std::ptr::null::<u32>(), 0) };
}
