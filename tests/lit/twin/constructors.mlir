// Implementations are loaded only in the call worker: whatever a library's
// static constructor does (fault, abort, exit) ends the worker, never
// hivm-run, and is reported at the op that called into the library.
// RUN: HIVM_TEST_CTOR=none hivm-run %s --entry k --impl %S/Inputs/ctor.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=OK
// RUN: not env HIVM_TEST_CTOR=segv hivm-run %s --entry k --impl %S/Inputs/ctor.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=SEGV
// RUN: not env HIVM_TEST_CTOR=abort hivm-run %s --entry k --impl %S/Inputs/ctor.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=ABORT
// RUN: not env HIVM_TEST_CTOR=exit hivm-run %s --entry k --impl %S/Inputs/ctor.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=EXIT
// A missing entry is found without loading the library (here: no constructor runs).
// RUN: not env HIVM_TEST_CTOR=exit hivm-run %s --entry missing --impl %S/Inputs/ctor.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=MISSING
// OK: [1, 1, 1, 1]
// SEGV: constructors.mlir:[[@LINE+11]]:3: error: custom op 'bump' (_mlir_ciface_bump) crashed with signal 11 (Segmentation fault)
// ABORT: constructors.mlir:[[@LINE+10]]:3: error: custom op 'bump' (_mlir_ciface_bump) crashed with signal 6 (Aborted)
// EXIT: constructors.mlir:[[@LINE+9]]:3: error: custom op 'bump' (_mlir_ciface_bump) ended the process with exit status 7
// MISSING: constructors.mlir:[[@LINE+12]]:3: error: custom op 'nope' has no implementation: no _mlir_ciface_nope in {{.*}}ctor.cpp
// MISSING-NOT: exit status
// SEGV-NEXT: {{^ *hivm.hir.custom}}
// SEGV-NEXT: ^
// SEGV-NEXT: note: before the entry was reached: while the call worker loaded the library, whose static constructors run there
// EXIT: note: before the entry was reached

func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump"} "bump" outs(%m : memref<4xf32>)
  return
}
func.func @missing(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "nope"} "nope" outs(%m : memref<4xf32>)
  return
}
