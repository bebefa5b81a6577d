//! Fork safety of the twin's buffers and call worker: a process forked
//! while another thread runs kernels runs its own. (A test binary of its
//! own: were other tests' threads waiting for the worker's lock at the
//! fork, `parking_lot` could hand the lock to a waiter that does not exist
//! in the child.)

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

const IMPL: &str = r#"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
template <typename T, int N> struct memref_t { T *allocated; T *aligned; int64_t offset, sizes[N], strides[N]; };
// A cache of its own, as implementations may keep: mappings the worker
// makes after it was forked, where the interpreter's process has none.
static void *cache[512];
static int64_t calls;
extern "C" void _mlir_ciface_stamp(memref_t<int32_t, 1> *out) {
  void *p = malloc(160 * 1024 + (calls * 4096) % (256 * 1024));
  memset(p, 1, 64);
  free(cache[calls % 512]);
  cache[calls++ % 512] = p;
  for (int64_t i = 0; i < out->sizes[0]; ++i)
    out->aligned[i] = (int32_t)getpid();
}
"#;

const KERNEL: &str = r#"
func.func @k(%out: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "stamp"} "stamp" outs(%out : memref<64xi32>)
  }
  return
}
"#;

fn run(impl_path: &Path) -> Vec<i32> {
    let opts = RunOptions {
        entry: None,
        impls: vec![impl_path.to_path_buf()],
        args: vec![ArgSpec::Zeros(vec![64], Elem::Int(32))],
        blocks: 1,
        timeout: Duration::from_secs(30),
        progress: false,
        max_ops: u64::MAX,
        trace: false,
        sync_solver: false,
    };
    let out = hivm_twin::run_source(KERNEL, "arena.mlir", Path::new("."), &opts);
    if let Some(e) = &out.error {
        panic!("{}", out.render(e));
    }
    let (_, _, bytes) = out.args.into_iter().flatten().next().expect("the output");
    bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// A process forked while another thread is inside runs (holding the
/// registry's lock at times, with pooled mappings the parent will reuse)
/// runs kernels of its own: the lock is released in the child, and the
/// pool, shared with the parent, is not handed out there.
#[test]
fn a_process_forked_during_runs_can_run() {
    let dir = std::env::temp_dir().join(format!("hivm-arena-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stamp.cpp");
    std::fs::write(&impl_path, IMPL).unwrap();
    let parents = run(&impl_path)[0];
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let busy = s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                run(&impl_path);
            }
        });
        let mut failure = None;
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(30));
            // SAFETY: the child only runs a kernel and leaves by _exit.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                let ok = std::panic::catch_unwind(|| {
                    let pids = run(&impl_path);
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
        busy.join().unwrap();
        assert_eq!(failure, None);
    });
    let _ = std::fs::remove_dir_all(&dir);
}
