//! Stopping a run from outside: Python's Ctrl-C. The caller installs a
//! check for the duration of a run on its thread; the interpreter polls it
//! every few thousand ops and the wait for an implementation's call between
//! its sleeps, each at most every [`EVERY`], so a run stops within about
//! that long whatever it is doing. Without a check, polling costs a
//! thread-local read.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether the run should stop (it may run the caller's signal handlers).
pub type Check = Arc<dyn Fn() -> bool + Send + Sync>;

/// How often the check is asked at most.
pub const EVERY: Duration = Duration::from_millis(50);

/// Ops between two looks at the clock.
pub const OPS: u64 = 1 << 14;

struct Installed {
    check: Check,
    last: Instant,
    /// Once true, stays true: everything on the way out stops too.
    requested: bool,
}

thread_local! {
    static CHECK: RefCell<Option<Installed>> = const { RefCell::new(None) };
}

/// Runs `f` with `check` installed on this thread (none: `f` as it is).
pub fn with_check<T>(check: Option<Check>, f: impl FnOnce() -> T) -> T {
    let Some(check) = check else { return f() };
    struct Restore(Option<Installed>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            CHECK.with(|c| *c.borrow_mut() = outer);
        }
    }
    let installed = Installed { check, last: Instant::now(), requested: false };
    let _restore = Restore(CHECK.with(|c| c.borrow_mut().replace(installed)));
    f()
}

/// Whether a stop was asked for, asking the check if [`EVERY`] has passed.
pub fn requested() -> bool {
    let due = CHECK.with(|c| {
        let mut c = c.borrow_mut();
        let i = c.as_mut()?;
        if i.requested {
            return Some(None);
        }
        if i.last.elapsed() < EVERY {
            return None;
        }
        i.last = Instant::now();
        Some(Some(i.check.clone()))
    });
    match due {
        None => false,
        Some(None) => true,
        Some(Some(check)) => {
            // Called with no borrow held: the caller's handlers may run a
            // nested run on this thread, which installs its own check.
            let stop = check();
            if stop {
                CHECK.with(|c| {
                    if let Some(i) = c.borrow_mut().as_mut() {
                        i.requested = true;
                    }
                });
            }
            stop
        }
    }
}
