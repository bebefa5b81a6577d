// The sync solver's tester mode: each function of the input triggers a
// sweep of random unsynchronised kernels (runs, first seed, ops, UB
// buffers, multi-buffer, cross-core[, performance-only]), each solved and
// then run in the CPU twin against a barrier-after-every-op reference.
// RUN: hivm-opt %s -pass-pipeline="builtin.module(func.func(hivm-graph-sync-solver{solver-version=v2 enable-tester-mode=true sync-tester-options="4,7,25,6,0,0"}))" | FileCheck %s
// RUN: hivm-opt %s -pass-pipeline="builtin.module(func.func(hivm-graph-sync-solver{enable-tester-mode=true sync-tester-options="3,1,60,2,0,0,1"}))" | FileCheck %s --check-prefix=PERF
// With cross-core, the kernels also hold cube matmul steps (nd2nz, mmadL1,
// fixpipe over shared L1 and L0C buffers), still on one core.
// RUN: hivm-opt %s -pass-pipeline="builtin.module(func.func(hivm-graph-sync-solver{enable-tester-mode=true sync-tester-options="6,3,20,3,1,1"}))" | FileCheck %s --check-prefix=CUBE
// RUN: not hivm-opt %s -hivm-graph-sync-solver="enable-tester-mode=true sync-tester-options=3,1" 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not hivm-opt %s -hivm-graph-sync-solver="enable-tester-mode=true sync-tester-options=1,0,x,4,0,0" 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not hivm-opt %s -hivm-graph-sync-solver="enable-tester-mode=maybe" 2>&1 | FileCheck %s --check-prefix=BOOL

// CHECK: tester-options: seed(7) num_ops(25) num_ptrs(6) multibuffer(0) enableCrossCoreMode(0) performanceOnly(0) solverVersion(2)
// CHECK-NEXT: succeeded
// CHECK-NOT: failed
// CHECK: func.func @kernel()

// CUBE: multibuffer(1) enableCrossCoreMode(1)
// CUBE-NEXT: succeeded

// PERF: performanceOnly(1) solverVersion(1)
// PERF-NEXT: succeeded

// SHORT: error: sync-tester-options takes 6 or 7 integers (runs, seed, ops, pointers, multi-buffer, cross-core[, performance-only]), not 2
// NAN: error: sync-tester-options expects integers separated by commas, not '1,0,x,4,0,0'
// BOOL: error: option 'enable-tester-mode' of hivm-graph-sync-solver expects true or false, not 'maybe'

func.func @kernel() {
  return
}
