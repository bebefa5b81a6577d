//! A kernel whose 64 calls each stamp the call worker's pid into its
//! output, with an implementation that keeps malloc'd memory of its own (so
//! the worker makes mappings after it was forked): what the worker's
//! address-range and fork-safety tests run.

use std::path::Path;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

pub const IMPL: &str = r#"
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

pub fn run(impl_path: &Path) -> Vec<i32> {
    let opts = RunOptions {
        impls: vec![impl_path.to_path_buf()],
        args: vec![ArgSpec::Zeros(vec![64], Elem::Int(32))],
        ..RunOptions::default()
    };
    let out = hivm_twin::run_source(KERNEL, "arena.mlir", Path::new("."), &opts);
    if let Some(e) = &out.error {
        panic!("{}", out.render(e));
    }
    let (_, _, bytes) = out.args.into_iter().flatten().next().expect("the output");
    bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}
