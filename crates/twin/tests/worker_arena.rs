//! The call worker keeps serving one run's calls while other threads make
//! and free buffers: every buffer lies in the address range reserved before
//! the worker was forked, so a new one never lands on something the worker
//! mapped for itself (the library it loaded, its malloc arenas) and the
//! worker is never replaced for it. Each call stamps the worker's pid.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hivm_twin::memory::{Buffer, Space};
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

#[test]
fn new_buffers_never_collide_with_the_worker() {
    let dir = std::env::temp_dir().join(format!("hivm-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stamp.cpp");
    std::fs::write(&impl_path, IMPL).unwrap();
    let first = run(&impl_path);
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
                s.spawn(move || (0..15).flat_map(|_| run(&impl_path)).collect::<Vec<i32>>())
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
