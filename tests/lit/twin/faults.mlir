// A crash, a hang or a misuse inside an implementation is an error at the
// custom op, naming its entry point; hivm-run itself survives.
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry null_deref --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=NULL
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry spin --timeout 0.5 --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=SPIN
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry trap --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry past_ub --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=UB
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry past_gm --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=GM
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry exits --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry missing --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry past_end --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=PASTEND
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry around --arg zeros:5xf32 2>&1 | FileCheck %s --check-prefix=AROUND

// NULL: faults.mlir:[[@LINE+3]]:3: error: custom op 'crash' (_mlir_ciface_null_deref) crashed with signal 11 (Segmentation fault)
// NULL-NOT: panicked
func.func @null_deref(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "null_deref"} "crash" outs(%m : memref<16xf32>)
  return
}

// SPIN: faults.mlir:[[@LINE+2]]:3: error: custom op 'loop' (_mlir_ciface_spin) did not return within 0.5 s (an endless loop?)
func.func @spin(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "spin"} "loop" outs(%m : memref<16xf32>)
  return
}

// TRAP: faults.mlir:[[@LINE+2]]:3: error: custom op 'trap' (_mlir_ciface_call_abort) crashed with signal 4 (Illegal instruction)
func.func @trap(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "call_abort"} "trap" outs(%m : memref<16xf32>)
  return
}

// UB: faults.mlir:[[@LINE+2]]:3: error: custom op 'ub' (_mlir_ciface_past_ub): vadd: UB access [196480, 196736) is outside UB (196608 bytes)
func.func @past_ub(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "past_ub"} "ub" outs(%m : memref<16xf32>)
  return
}

// GM: faults.mlir:[[@LINE+2]]:3: error: custom op 'gm' (_mlir_ciface_past_gm): copy_gm_to_ubuf_align_b32: GM access of 128 bytes at {{.*}} runs 64 bytes past the end of its buffer
func.func @past_gm(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_MTE2>, symbol = "past_gm"} "gm" outs(%m : memref<16xf32>)
  return
}

// EXIT: faults.mlir:[[@LINE+2]]:3: error: custom op 'quit' (_mlir_ciface_exits) ended the process with exit status 3
func.func @exits(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "exits"} "quit" outs(%m : memref<16xf32>)
  return
}

// MISSING: faults.mlir:[[@LINE+2]]:3: error: custom op 'nothing' has no implementation: no _mlir_ciface_not_there in {{.*}}faults.cpp
func.func @missing(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "not_there"} "nothing" outs(%m : memref<16xf32>)
  return
}

// Running off the end of a buffer in plain C hits its guard page.
// PASTEND: faults.mlir:[[@LINE+3]]:3: error: custom op 'overrun' (_mlir_ciface_past_end) crashed with signal 11 (Segmentation fault)
// PASTEND: note: a memory fault: every buffer passed to it ends at an inaccessible page
func.func @past_end(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "past_end"} "overrun" outs(%m : memref<16xf32>)
  return
}

// Writes just outside a buffer that do not reach a guard page break the
// canary around it.
// AROUND: faults.mlir:[[@LINE+2]]:3: error: custom op 'around' (_mlir_ciface_around) wrote outside its buffers: 4 bytes before and 4 bytes after argument 0
func.func @around(%m: memref<5xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "around"} "around" outs(%m : memref<5xf32>)
  return
}
