// Double buffering as the hardware does it: each run of the loop body uses
// the address of a two-address pointer_cast that the iteration counter
// selects, and the solver's rotating event ids order each copy only with
// the iteration two before. The solver's output runs clean with the right
// numbers as written (counter and multi-address casts run directly), and
// through hivm-run --sync-solver, which then splits the buffers and lowers
// the counter as upstream does (arith.select on memrefs, a counter cell).
// RUN: python3 %root/scripts/npy.py %t.in.npy f32 256 range:0:1
// RUN: hivm-opt %s -hivm-graph-sync-solver -o %t.solved.mlir
// RUN: hivm-run %t.solved.mlir --arg %t.in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=NUMBERS --implicit-check-not=error --implicit-check-not=warning
// RUN: hivm-run %s --sync-solver --arg %t.in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=NUMBERS --implicit-check-not=error --implicit-check-not=warning
// RUN: hivm-opt %t.solved.mlir -hivm-enable-multi-buffer -hivm-lower-multi-buffer-counter -o %t.split.mlir
// RUN: hivm-run %t.split.mlir --arg %t.in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=NUMBERS --implicit-check-not=error --implicit-check-not=warning
// Without the rotating wait before the load, the third iteration's load
// overwrites the first copy while the first iteration's load and vadd may
// still be at work on it: a race at the load (and flags left set).
// RUN: grep -v 'wait_flag\[<PIPE_V>, <PIPE_MTE2>, %' %t.solved.mlir > %t.nowait.mlir
// RUN: not hivm-run %t.nowait.mlir --arg %t.in.npy --arg zeros:256xf32 2>&1 | FileCheck %s --check-prefix=NOWAIT
// The same with the split buffers.
// RUN: grep -v 'wait_flag\[<PIPE_V>, <PIPE_MTE2>, %' %t.split.mlir > %t.split-nowait.mlir
// RUN: not hivm-run %t.split-nowait.mlir --arg %t.in.npy --arg zeros:256xf32 2>&1 | FileCheck %s --check-prefix=NOWAIT

// NUMBERS: [0, 2, 4, 6,
// NUMBERS-SAME: 506, 508, 510]
// NOWAIT: error: race: PIPE_MTE2 write of UB[0, 256) is not ordered after an earlier
// NOWAIT-NEXT: hivm.hir.load
// NOWAIT: error: set_flag[PIPE_V, PIPE_MTE2, {{[01]}}] is still set when the kernel ends
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @double_buffer(%in: memref<256xf32, #hivm.address_space<gm>>, %out: memref<256xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %x0 = arith.constant 0 : i64
    %x1 = arith.constant 256 : i64
    %y0 = arith.constant 512 : i64
    %y1 = arith.constant 768 : i64
    scf.for %i = %c0 to %c256 step %c64 {
      %x = hivm.hir.pointer_cast(%x0, %x1) : memref<64xf32, #hivm.address_space<ub>>
      %y = hivm.hir.pointer_cast(%y0, %y1) : memref<64xf32, #hivm.address_space<ub>>
      %s = memref.subview %in[%i] [64] [1] : memref<256xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %d = memref.subview %out[%i] [64] [1] : memref<256xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%s : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%x, %x : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%y : memref<64xf32, #hivm.address_space<ub>>) outs(%d : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
