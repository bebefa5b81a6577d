// The scalar unit (PIPE_S) is a pipe like the others in the sync checker:
// scalar loads, stores, copies and fills are its accesses, ordered with the
// other pipes only by flags and barriers.
//
// An unrelated scalar load in a racy loop hides none of its races (it used
// to act as a full barrier and hid all of them).
// RUN: not hivm-run %s --entry racy_loop --arg zeros:64xf32 --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=LOOP
// A scalar store into UB, read by PIPE_V: without a flag a race at the
// vector op; with set_flag/wait_flag[PIPE_S, PIPE_V] clean.
// RUN: not hivm-run %s --entry scalar_then_vector --arg zeros:64xf32 --arg 0 2>&1 | FileCheck %s --check-prefix=SV
// RUN: hivm-run %s --entry scalar_then_vector --arg zeros:64xf32 --arg 1 --print 0 2>&1 | FileCheck %s --check-prefix=SV-OK
// A vector result read by scalar code, then a fill and a copy by PIPE_S
// that PIPE_MTE3 reads: each unsynchronised hand-over is reported.
// RUN: not hivm-run %s --entry vector_then_scalar --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=VS
// The solver synchronises scalar accesses too: the same kernels written
// without flags run clean after it.
// RUN: hivm-run %s --sync-solver --entry racy_loop --arg zeros:64xf32 --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: hivm-run %s --sync-solver --entry scalar_then_vector --arg zeros:64xf32 --arg 0 --print 0 2>&1 | FileCheck %s --check-prefix=SV-OK
// CLEAN-NOT: error

// LOOP-DAG: scalar-pipe.mlir:[[@LINE+19]]:5: error: race: PIPE_V read of UB[0, 256) is not ordered after an earlier PIPE_MTE2 write
// LOOP-DAG: scalar-pipe.mlir:[[@LINE+18]]:5: error: race: PIPE_V write of UB[256, 512) is not ordered after an earlier PIPE_V write of the same memory (no pipe_barrier[PIPE_V] between them)
// LOOP-DAG: scalar-pipe.mlir:[[@LINE+19]]:5: error: race: PIPE_MTE3 read of UB[256, 512) is not ordered after an earlier PIPE_V write
// LOOP-DAG: scalar-pipe.mlir:[[@LINE+14]]:5: error: race: PIPE_MTE2 write of UB[0, 256) is not ordered after an earlier PIPE_MTE2 write of the same memory (no pipe_barrier[PIPE_MTE2] between them)
// LOOP-DAG: scalar-pipe.mlir:[[@LINE+17]]:5: error: race: PIPE_MTE3 write of argument 1[0, 256) is not ordered after an earlier PIPE_MTE3 write
// LOOP: hivm-run: 5 sync problem(s) found
func.func @racy_loop(%g: memref<64xf32, #hivm.address_space<gm>>, %o: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a2 = arith.constant 512 : i64
  %a = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  %cell = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c2 step %c1 {
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
    %x = memref.load %cell[%c0] : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%a, %a : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
    %y = memref.load %cell[%c1] : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  }
  return
}

// SV-OK: [3, 0, 0, 0,
// SV: scalar-pipe.mlir:[[@LINE+16]]:3: error: race: PIPE_V read of UB[0, 256) is not ordered after an earlier PIPE_S write of the same memory (no set_flag/wait_flag chain orders them)
// SV: scalar-pipe.mlir:[[@LINE+9]]:3: note: the earlier access
func.func @scalar_then_vector(%o: memref<64xf32, #hivm.address_space<gm>>, %sync: i1) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.5 : f32
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  memref.store %f, %a[%c0] : memref<64xf32, #hivm.address_space<ub>>
  scf.if %sync {
    hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  }
  hivm.hir.vadd ins(%a, %a : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// VS: scalar-pipe.mlir:[[@LINE+16]]:8: error: race: PIPE_S read of UB[0, 4) is not ordered after an earlier PIPE_MTE2 write
// VS: scalar-pipe.mlir:[[@LINE+17]]:3: error: race: PIPE_S read of UB[0, 256) is not ordered after an earlier PIPE_MTE2 write
// VS: scalar-pipe.mlir:[[@LINE+17]]:3: error: race: PIPE_MTE3 read of UB[256, 512) is not ordered after an earlier PIPE_S write
// VS: scalar-pipe.mlir:[[@LINE+15]]:3: note: the earlier access
// VS: hivm-run: 4 sync problem(s) found
func.func @vector_then_scalar(%o: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  // The copy below writes %b's bytes again (one buffer: two casts of one address would be two live buffers).
  hivm.hir.load ins(%o : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vadd ins(%a, %a : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  %x = memref.load %a[%c0] : memref<64xf32, #hivm.address_space<ub>>
  linalg.fill ins(%x : f32) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  memref.copy %a, %b : memref<64xf32, #hivm.address_space<ub>> to memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// Fills and copies by the scalar unit, and scalar stores into an argument
// without a memory space, are synchronised by the solver as PIPE_S work
// (upstream's pipeline turns fills and copies into pipe ops before its
// solver runs; kernels written at this level keep them).
// RUN: python3 %root/scripts/npy.py %t.in.npy f32 64 range:0:1
// RUN: hivm-run %s --sync-solver --entry fill_copy --arg %t.in.npy --arg zeros:64xf32 --print 1 2>&1 | FileCheck %s --check-prefix=FILL --implicit-check-not=error --implicit-check-not=warning
// RUN: not hivm-run %s --entry fill_copy --arg %t.in.npy --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=FILL-RACE
// FILL: [1, 2, 3, 4,
// FILL-SAME: 62, 63, 64]
// FILL-RACE: error: race: PIPE_V read of UB[0, 256) is not ordered after an earlier PIPE_S write
func.func @fill_copy(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  linalg.fill ins(%one : f32) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%in : memref<64xf32>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%a, %b : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  memref.copy %b, %a : memref<64xf32, #hivm.address_space<ub>> to memref<64xf32, #hivm.address_space<ub>>
  memref.store %one, %in[%c0] : memref<64xf32>
  hivm.hir.store ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32>)
  return
}
