//! An implementation that keeps a pointer to a buffer from one call and
//! writes through it in a later one, once no buffer owns that memory (the
//! mapping is pooled for reuse), is stopped by a located fault: the call
//! worker keeps pooled mappings inaccessible.

use std::path::Path;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

const IMPL: &str = r#"
#include <stdint.h>
template <typename T, int N> struct memref_t { T *allocated; T *aligned; int64_t offset, sizes[N], strides[N]; };
static float *kept;
extern "C" void _mlir_ciface_keep(memref_t<float, 1> *m) {
  kept = m->aligned + m->offset;
  kept[0] = 1.0f;
}
extern "C" void _mlir_ciface_poke(memref_t<float, 1> *m) {
  if (kept)
    kept[0] = 2.0f;
  m->aligned[m->offset] = 3.0f;
}
"#;

// The kept buffer is one the kernel allocates in UB, which the call worker
// may write. The second kernel is for a target with a larger UB, so its
// block does not take the first one's UB mapping from the pool.
const KEEP: &str = r#"
func.func @keep(%o: memref<16xf32>) {
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "keep"} "keep" outs(%u : memref<16xf32, #hivm.address_space<ub>>)
  return
}
"#;

const POKE: &str = r#"
module attributes {hacc.target = #hacc.target<"Ascend310B1">} {
  func.func @poke(%o: memref<16xf32>) {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "poke"} "poke" outs(%o : memref<16xf32>)
    return
  }
}
"#;

fn run(impl_path: &Path, kernel: &str) -> Result<(), String> {
    let opts = RunOptions {
        impls: vec![impl_path.to_path_buf()],
        args: vec![ArgSpec::Zeros(vec![16], Elem::F32)],
        ..RunOptions::default()
    };
    let out = hivm_twin::run_source(kernel, "stale.mlir", Path::new("."), &opts);
    match &out.error {
        Some(e) => Err(out.render(e)),
        None => Ok(()),
    }
}

#[test]
fn a_write_through_a_pointer_kept_from_an_earlier_run_is_a_located_fault() {
    let dir = std::env::temp_dir().join(format!("hivm-twin-stale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let impl_path = dir.join("stale.cpp");
    std::fs::write(&impl_path, IMPL).unwrap();
    run(&impl_path, KEEP).unwrap();
    // The first run's UB is free now: its mapping is pooled.
    let e = run(&impl_path, POKE).expect_err("a write to freed memory went unnoticed");
    assert!(e.contains("stale.mlir:4:5: error: custom op 'poke' (_mlir_ciface_poke) reached freed memory"), "{e}");
    // The worker that faulted is replaced; the next runs are sound.
    run(&impl_path, KEEP).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
