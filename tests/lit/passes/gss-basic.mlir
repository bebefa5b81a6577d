// The sync solver on straight-line code and a loop (spec sync-solver.md):
// each hazard between pipes gets a set/wait pair, one already ordered by a
// chain gets nothing, a loop-carried hazard gets a prologue set and an
// epilogue wait, and a device entry ends with a barrier on every pipe.
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v1 -split-input-file | FileCheck %s
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v2 -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @chain(
// MTE2 -> V -> MTE3 orders the load before the store: no MTE2 -> MTE3 sync.
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.vmul
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.store
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: return
func.func @chain(%in: memref<128xf32, #hivm.address_space<gm>>, %out: memref<128xf32, #hivm.address_space<gm>>)
    attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %c0 = arith.constant 0 : i64
  %c512 = arith.constant 512 : i64
  %x = hivm.hir.pointer_cast(%c0) : memref<128xf32, #hivm.address_space<ub>>
  %y = hivm.hir.pointer_cast(%c512) : memref<128xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<128xf32, #hivm.address_space<gm>>) outs(%x : memref<128xf32, #hivm.address_space<ub>>)
  hivm.hir.vmul ins(%x, %x : memref<128xf32, #hivm.address_space<ub>>, memref<128xf32, #hivm.address_space<ub>>) outs(%y : memref<128xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%y : memref<128xf32, #hivm.address_space<ub>>) outs(%out : memref<128xf32, #hivm.address_space<gm>>)
  return
}

// -----

// A tile reused by every iteration: the next load must wait for the store.
// Without hacc.entry there is no final barrier.
// CHECK-LABEL: func.func @tile_loop(
// CHECK: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: scf.for
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.store
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: }
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NOT: pipe_barrier
// CHECK: return
func.func @tile_loop(%in: memref<64xf16, #hivm.address_space<gm>>, %out: memref<64xf16, #hivm.address_space<gm>>) {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = hivm.hir.pointer_cast(%c0_i64) : memref<64xf16, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    hivm.hir.load ins(%in : memref<64xf16, #hivm.address_space<gm>>) outs(%t : memref<64xf16, #hivm.address_space<ub>>)
    hivm.hir.store ins(%t : memref<64xf16, #hivm.address_space<ub>>) outs(%out : memref<64xf16, #hivm.address_space<gm>>)
  }
  return
}

// -----

// Two loads feeding two adds through overlapping windows need two ids on
// MTE2 -> V; the earlier sync takes the higher id (upstream's colouring).
// CHECK-LABEL: func.func @two_ids(
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.vadd
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.vadd
func.func @two_ids(%a: memref<64xf16, #hivm.address_space<gm>>, %b: memref<64xf16, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : i64
  %c128 = arith.constant 128 : i64
  %c256 = arith.constant 256 : i64
  %c384 = arith.constant 384 : i64
  %x = hivm.hir.pointer_cast(%c0) : memref<64xf16, #hivm.address_space<ub>>
  %y = hivm.hir.pointer_cast(%c128) : memref<64xf16, #hivm.address_space<ub>>
  %u = hivm.hir.pointer_cast(%c256) : memref<64xf16, #hivm.address_space<ub>>
  %v = hivm.hir.pointer_cast(%c384) : memref<64xf16, #hivm.address_space<ub>>
  hivm.hir.load ins(%a : memref<64xf16, #hivm.address_space<gm>>) outs(%x : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.load ins(%b : memref<64xf16, #hivm.address_space<gm>>) outs(%y : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%x, %x : memref<64xf16, #hivm.address_space<ub>>, memref<64xf16, #hivm.address_space<ub>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%y, %y : memref<64xf16, #hivm.address_space<ub>>, memref<64xf16, #hivm.address_space<ub>>) outs(%v : memref<64xf16, #hivm.address_space<ub>>)
  return
}
