//! What one small run with one custom-op call costs, in process: the
//! median of 1000 runs of `hivm_twin::run_source` (buffers, the call
//! worker's mappings, the call). A measurement, not a check:
//! `cargo test -p hivm-twin --test run_cost -- --ignored --nocapture`.

use std::path::Path;
use std::time::{Duration, Instant};

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

const IMPL: &str = r#"
#include <stdint.h>
template <typename T, int N> struct memref_t { T *allocated; T *aligned; int64_t offset, sizes[N], strides[N]; };
extern "C" void _mlir_ciface_twice(memref_t<float, 1> *in, memref_t<float, 1> *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i)
    out->aligned[i] = 2 * in->aligned[i];
}
"#;

const KERNEL: &str = r#"
func.func @k(%in: memref<64xf32>, %out: memref<64xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "twice"} "twice" ins(%in : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}
"#;

#[test]
#[ignore]
fn median_of_a_small_run_with_one_call() {
    let dir = std::env::temp_dir().join(format!("hivm-run-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("twice.cpp");
    std::fs::write(&impl_path, IMPL).unwrap();
    let opts = RunOptions {
        impls: vec![impl_path],
        args: vec![ArgSpec::Zeros(vec![64], Elem::F32), ArgSpec::Zeros(vec![64], Elem::F32)],
        ..RunOptions::default()
    };
    let mut times = Vec::new();
    for i in 0..1010 {
        let t = Instant::now();
        let out = hivm_twin::run_source(KERNEL, "cost.mlir", Path::new("."), &opts);
        let d = t.elapsed();
        if let Some(e) = &out.error {
            panic!("{}", out.render(e));
        }
        // The first runs build the library and fork the worker.
        if i >= 10 {
            times.push(d);
        }
    }
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "run_source, one call: median {:.0} us, p10 {:.0} us, p90 {:.0} us ({} runs)",
        us(times[times.len() / 2]),
        us(times[times.len() / 10]),
        us(times[times.len() * 9 / 10]),
        times.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
