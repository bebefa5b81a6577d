// hivm-run --sync-solver synchronises a kernel written without flags with
// the GraphSyncSolver before running it: the example then runs clean with
// the right sums; without the solver the same kernel races.
// RUN: hivm-run %root/examples/sync_solver/macro_add.mlir --sync-solver --arg zeros:32xi32 --arg %root/examples/custom_macro_add/a.npy --arg %root/examples/custom_macro_add/b.npy --print 0 2>&1 | FileCheck %s --check-prefix=SOLVED --implicit-check-not=error
// RUN: not hivm-run %root/examples/sync_solver/macro_add.mlir --arg zeros:32xi32 --arg %root/examples/custom_macro_add/a.npy --arg %root/examples/custom_macro_add/b.npy 2>&1 | FileCheck %s --check-prefix=RACE
// A kernel of its own: a loop of loads, a vector op and stores over one UB
// tile, synchronised only by the solver (a backward MTE3 -> MTE2 sync with
// its prologue and epilogue).
// RUN: python3 %root/scripts/npy.py %t.gss-in.npy f32 256 range:0:1
// RUN: hivm-run %s --sync-solver --arg %t.gss-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=LOOP --implicit-check-not=error
// RUN: not hivm-run %s --arg %t.gss-in.npy --arg zeros:256xf32 2>&1 | FileCheck %s --check-prefix=RACE
// SOLVED: [1000, 996, 992,
// SOLVED-SAME: 884, 880, 876]
// RACE: error: race:
// LOOP: [0, 2, 4, 6,
// LOOP-SAME: 506, 508, 510]
func.func @tiles(%in: memref<256xf32>, %out: memref<256xf32>) {
  %c0_i64 = arith.constant 0 : i64
  %ub = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c64 {
    %s = memref.subview %in[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d = memref.subview %out[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    hivm.hir.load ins(%s : memref<64xf32, strided<[1], offset: ?>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ub, %ub : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%ub : memref<64xf32, #hivm.address_space<ub>>) outs(%d : memref<64xf32, strided<[1], offset: ?>>)
  }
  return
}
