//! Fork safety of the twin's buffers and call worker: a process forked
//! while another thread runs kernels runs its own.

mod stamp;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A process forked while another thread is inside runs (holding the
/// registry's lock at times, with pooled mappings the parent will reuse)
/// runs kernels of its own: the lock is released in the child, and the
/// pool, shared with the parent, is not handed out there.
#[test]
fn a_process_forked_during_runs_can_run() {
    let dir = std::env::temp_dir().join(format!("hivm-arena-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stamp.cpp");
    std::fs::write(&impl_path, stamp::IMPL).unwrap();
    let parents = stamp::run(&impl_path)[0];
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        // Several threads, so that at a fork some wait for the locks another holds.
        let busy: Vec<_> = (0..3)
            .map(|_| {
                s.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        stamp::run(&impl_path);
                    }
                })
            })
            .collect();
        let mut failure = None;
        for _ in 0..10 {
            std::thread::sleep(Duration::from_millis(30));
            // SAFETY: the child only runs a kernel and leaves by _exit.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                let ok = std::panic::catch_unwind(|| {
                    let pids = stamp::run(&impl_path);
                    // SAFETY: plain query.
                    let me = unsafe { libc::getpid() };
                    // Its own worker (a child of the child) stamped it,
                    // not the parent's through a mapping both use.
                    pids.iter().all(|p| *p == pids[0] && *p != me && *p != parents && *p > 0)
                });
                // SAFETY: leaving the forked child without running the parent's destructors.
                unsafe { libc::_exit(if matches!(ok, Ok(true)) { 0 } else { 1 }) };
            }
            let mut status = 0;
            let start = std::time::Instant::now();
            // SAFETY: our child, waited for at most a minute.
            while unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } == 0 {
                if start.elapsed() > Duration::from_secs(60) {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    unsafe { libc::waitpid(pid, &mut status, 0) };
                    failure = Some("the child hung".to_string());
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
                failure.get_or_insert(format!("the child failed: status {status:#x}"));
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        for b in busy {
            b.join().unwrap();
        }
        assert_eq!(failure, None);
    });
    let _ = std::fs::remove_dir_all(&dir);
}
