// The 950 generation's matmul library keeps no L0 ping-pong prologue or
// epilogue of its own: it waits M -> MTE1 events 0 and 1 (alternating with
// every K part, across calls) and relies on the solver's bracket, which
// sets both before the matmuls and waits both after. The solver's output
// runs clean; without the bracket the library's first wait hangs.
// RUN: hivm-run %s --sync-solver --arg zeros:32x64xf16 --arg zeros:64x48xf16 --arg zeros:32x48xf32 2>&1 | FileCheck %s --check-prefix=SOLVED --allow-empty
// RUN: hivm-opt %s --hivm-graph-sync-solver | grep -v "<PIPE_M>, <PIPE_MTE1>" > %t.mlir
// RUN: not hivm-run %t.mlir --arg zeros:32x64xf16 --arg zeros:64x48xf16 --arg zeros:32x48xf32 2>&1 | FileCheck %s --check-prefix=BARE
// SOLVED-NOT: warning
// SOLVED-NOT: error
// BARE: error: wait_flag[PIPE_M, PIPE_MTE1, 0] waits for a flag that nothing has set: this hangs on hardware [in the implementation: mmadL1's library: wait for its L0 half]
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
func.func @k_loop(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %parts = arith.constant 2 : index
  %m = arith.constant 32 : index
  %k = arith.constant 32 : index
  %n = arith.constant 48 : index
  %pad = arith.constant 0.0 : f16
  %at_a = arith.constant 0 : i64
  %at_b = arith.constant 65536 : i64
  %l1a = hivm.hir.pointer_cast(%at_a) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%at_b) : memref<3x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%at_a) : memref<3x2x16x16xf32, #hivm.address_space<cc>>
  scf.for %i = %c0 to %parts step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    %off = arith.muli %i, %k : index
    %sa = memref.subview %a[0, %off] [32, 32] [1, 1] : memref<32x64xf16> to memref<32x32xf16, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[%off, 0] [32, 48] [1, 1] : memref<64x48xf16> to memref<32x48xf16, strided<[48, 1], offset: ?>>
    hivm.hir.nd2nz {dst_continuous} ins(%sa : memref<32x32xf16, strided<[64, 1], offset: ?>>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>) init_out_buffer = true pad_value = %pad : f16
    hivm.hir.nd2nz {dst_continuous} ins(%sb : memref<32x48xf16, strided<[48, 1], offset: ?>>) outs(%l1b : memref<3x2x16x16xf16, #hivm.address_space<cbuf>>) init_out_buffer = true pad_value = %pad : f16
    hivm.hir.mmadL1 ins(%l1a, %l1b, %first, %m, %k, %n : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<3x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<3x2x16x16xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<3x2x16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<32x48xf32>)
  return
}
}
