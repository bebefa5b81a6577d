//! The call worker keeps serving one run's calls while other threads make
//! and free buffers: every buffer lies in the address range reserved before
//! the worker was forked, so a new one never lands on something the worker
//! mapped for itself (the library it loaded, its malloc arenas) and the
//! worker is never replaced for it. Each call stamps the worker's pid.

mod stamp;

use std::sync::atomic::{AtomicBool, Ordering};

use hivm_twin::memory::{Buffer, Space};

#[test]
fn new_buffers_never_collide_with_the_worker() {
    let dir = std::env::temp_dir().join(format!("hivm-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stamp.cpp");
    std::fs::write(&impl_path, stamp::IMPL).unwrap();
    let first = stamp::run(&impl_path);
    assert!(first.iter().all(|p| *p == first[0] && *p > 0), "one worker for the whole run: {first:?}");
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        // Buffers of ever new sizes (so the pool cannot serve them), some
        // kept for a while, made and freed while the runs below call.
        for t in 0..2u64 {
            let stop = &stop;
            s.spawn(move || {
                let mut kept = Vec::new();
                let mut i = t;
                while !stop.load(Ordering::Relaxed) {
                    i += 1;
                    let len = 4096 * (1 + (i * 7919) % 97) as usize + (i % 13) as usize;
                    kept.push(Buffer::new(len, Space::Gm).unwrap());
                    if kept.len() > 8 {
                        kept.remove((i % 8) as usize);
                    }
                }
            });
        }
        let runs: Vec<_> = (0..2)
            .map(|_| {
                let impl_path = impl_path.clone();
                s.spawn(move || (0..15).flat_map(|_| stamp::run(&impl_path)).collect::<Vec<i32>>())
            })
            .collect();
        let results: Vec<_> = runs.into_iter().map(|h| h.join()).collect();
        stop.store(true, Ordering::Relaxed);
        let mut pids = Vec::new();
        for r in results {
            match r {
                Ok(p) => pids.extend(p),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        let distinct: std::collections::BTreeSet<i32> = pids.iter().copied().collect();
        assert_eq!(distinct.len(), 1, "the call worker was replaced during the runs: pids {distinct:?}");
    });
    let _ = std::fs::remove_dir_all(&dir);
}
