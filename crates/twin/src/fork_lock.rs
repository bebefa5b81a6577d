//! A mutex that a forked child can take over. The twin's process-wide state
//! (the buffer registry, the call worker, the worker spawner, spare run
//! parts) is locked by threads that a `fork` (Python's `os.fork` during a
//! `hivm.run`) does not copy. A child must then release a lock such a
//! thread held. General-purpose locks cannot be released that way safely:
//! `parking_lot`'s unlock hands the lock to a parked waiter recorded in its
//! global table — in the child, a thread that does not exist, so the lock
//! stays held forever. This one is a bare futex word (0 free, 1 held, 2 held
//! with waiters), with no record of waiters beyond the kernel's: a child,
//! which has one thread and no waiters, resets the word and owns nothing.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU32, Ordering};

const FREE: u32 = 0;
const HELD: u32 = 1;
const WAITED: u32 = 2;

pub struct ForkLock<T> {
    state: AtomicU32,
    value: UnsafeCell<T>,
}

// SAFETY: the value is reached only through a guard, which one thread at a
// time holds.
unsafe impl<T: Send> Sync for ForkLock<T> {}
unsafe impl<T: Send> Send for ForkLock<T> {}

pub struct ForkGuard<'a, T> {
    lock: &'a ForkLock<T>,
}

impl<T> ForkLock<T> {
    pub const fn new(value: T) -> ForkLock<T> {
        ForkLock { state: AtomicU32::new(FREE), value: UnsafeCell::new(value) }
    }

    pub fn lock(&self) -> ForkGuard<'_, T> {
        if self.state.compare_exchange(FREE, HELD, Ordering::Acquire, Ordering::Relaxed).is_err() {
            self.lock_contended();
        }
        ForkGuard { lock: self }
    }

    #[cold]
    fn lock_contended(&self) {
        // Held briefly, as every holder here does: a short spin first.
        for _ in 0..100 {
            if self.state.load(Ordering::Relaxed) == FREE
                && self.state.compare_exchange(FREE, HELD, Ordering::Acquire, Ordering::Relaxed).is_ok()
            {
                return;
            }
            std::hint::spin_loop();
        }
        // Marked waited, so that the holder's unlock wakes a sleeper.
        while self.state.swap(WAITED, Ordering::Acquire) != FREE {
            futex(&self.state, libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG, WAITED);
        }
    }

    pub fn try_lock(&self) -> Option<ForkGuard<'_, T>> {
        self.state
            .compare_exchange(FREE, HELD, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
            .then_some(ForkGuard { lock: self })
    }

    pub fn is_locked(&self) -> bool {
        self.state.load(Ordering::Relaxed) != FREE
    }

    /// Frees the lock whoever holds it.
    ///
    /// # Safety
    /// Only in a forked child before it starts a thread (its atfork
    /// handler): any holder is a thread of the parent, absent here, and the
    /// value is consistent (every holder keeps it so between its steps).
    pub unsafe fn reset_in_child(&self) {
        self.state.store(FREE, Ordering::Release);
    }
}

impl<T> Drop for ForkGuard<'_, T> {
    fn drop(&mut self) {
        if self.lock.state.swap(FREE, Ordering::Release) == WAITED {
            futex(&self.lock.state, libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, 1);
        }
    }
}

impl<T> Deref for ForkGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds the lock.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for ForkGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds the lock, and is borrowed mutably.
        unsafe { &mut *self.lock.value.get() }
    }
}

/// Waits while the word is `val` (spurious returns are fine: callers
/// loop), or wakes `val` waiters.
fn futex(word: &AtomicU32, op: libc::c_int, val: u32) {
    // SAFETY: a futex call on a live, aligned word; no timeout.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), op, val, std::ptr::null::<libc::timespec>());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn threads_take_turns() {
        let lock = Arc::new(ForkLock::new(0u64));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let lock = lock.clone();
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        let mut g = lock.lock();
                        // Not atomic: lost updates would show if two held it.
                        let v = *g;
                        std::hint::black_box(&v);
                        *g = v + 1;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*lock.lock(), 80_000);
        assert!(!lock.is_locked());
    }

    #[test]
    fn a_forked_child_takes_over_a_lock_with_waiters() {
        static LOCK: ForkLock<u32> = ForkLock::new(7);
        let held = LOCK.lock();
        // A waiter parked on the lock when the process forks.
        let waiter = std::thread::spawn(|| *LOCK.lock());
        while LOCK.state.load(Ordering::Relaxed) != WAITED {
            std::thread::yield_now();
        }
        // SAFETY: the child only resets, locks and leaves by _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                // A child that deadlocks ends by the alarm, not hanging the test.
                libc::alarm(10);
                LOCK.reset_in_child();
                let g = LOCK.lock();
                let ok = *g == 7 && LOCK.try_lock().is_none();
                drop(g);
                libc::_exit(if ok { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        drop(held);
        assert_eq!(waiter.join().unwrap(), 7);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child status {status}");
    }
}
