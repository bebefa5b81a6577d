//! A run whose call worker dies leaves behind what the implementation
//! started; such a stray process (here a daemon that keeps writing 42 over
//! the call's output) shares the run's buffers. The next run in the same
//! process must not be given those buffers' memory again: its numbers are
//! its own.

use std::path::Path;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

const IMPL: &str = r#"
#include <stdint.h>
#include <unistd.h>
template <typename T, int N> struct memref_t { T *allocated; T *aligned; int64_t offset, sizes[N], strides[N]; };
extern "C" void _mlir_ciface_stray_then_fault(memref_t<float, 1> *out) {
  if (fork() == 0) {
    setsid();
    for (int i = 0; i < 3000; ++i) {
      for (int j = 0; j < out->sizes[0]; ++j)
        out->aligned[out->offset + j] = 42.0f;
      usleep(1000);
    }
    _exit(0);
  }
  usleep(20000);
  *(volatile int *)0 = 1;
}
"#;

const FAULTS: &str = r#"
func.func @k(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "stray_then_fault"} "stray" outs(%m : memref<16xf32>)
  return
}
"#;

// Fills its output with 7, then takes long enough for a stray writer to show.
const SEVENS: &str = r#"
func.func @k(%m: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 300000 : index
  %seven = arith.constant 7.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %seven, %m[%i] : memref<16xf32>
  }
  %scratch = memref.alloca() : memref<1xf32>
  scf.for %k = %c0 to %n step %c1 {
    memref.store %seven, %scratch[%c0] : memref<1xf32>
  }
  return
}
"#;

#[test]
fn a_stray_writer_of_a_failed_run_never_reaches_the_next_runs_buffers() {
    let dir = std::env::temp_dir().join(format!("hivm-twin-stray-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stray.cpp");
    std::fs::write(&impl_path, IMPL).unwrap();
    let opts = |impls: Vec<std::path::PathBuf>| RunOptions {
        impls,
        args: vec![ArgSpec::Zeros(vec![16], Elem::F32)],
        ..RunOptions::default()
    };
    let first = hivm_twin::run_source(FAULTS, "stray.mlir", Path::new("."), &opts(vec![impl_path.clone()]));
    let e = first.error.as_ref().map(|e| first.render(e)).expect("the call faults");
    assert!(e.contains("crashed with signal 11"), "{e}");
    let second = hivm_twin::run_source(SEVENS, "sevens.mlir", Path::new("."), &opts(vec![]));
    if let Some(e) = &second.error {
        panic!("{}", second.render(e));
    }
    let (_, _, bytes) = second.args.into_iter().flatten().next().expect("the output");
    let out: Vec<f32> = bytes.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(out, vec![7.0; 16]);
    let _ = std::fs::remove_dir_all(&dir);
}
