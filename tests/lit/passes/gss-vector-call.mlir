// A call of a vector function (or of an outlined SIMT function) runs on
// PIPE_V for the sync solver: it reads the arguments its declaration marks
// `hivm.memory_effect<read>` and writes those marked `write`, and with a
// body, also what its loads and stores reach. Other calls are not pipe work.
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v1 -split-input-file | FileCheck %s
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v2 -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @declared(
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: call @scale
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.store
module {
  func.func private @scale(memref<64xf32, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect<read>},
                           memref<64xf32, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect<write>})
      attributes {hivm.vf_mode = #hivm.vf_mode<SIMT>}
  func.func @declared(%in: memref<64xf32, #hivm.address_space<gm>>, %out: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : i64
    %c256 = arith.constant 256 : i64
    %x = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
    %y = hivm.hir.pointer_cast(%c256) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%in : memref<64xf32, #hivm.address_space<gm>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    call @scale(%x, %y) : (memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) -> ()
    hivm.hir.store ins(%y : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// The body's store makes the call a writer of its second argument.
// CHECK-LABEL: func.func @defined(
// CHECK: call @fill
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.store
// A plain call gets no sync at all.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: _flag
// CHECK: return
module {
  func.func @fill(%v: f32, %dst: memref<64xf32, #hivm.address_space<ub>>) attributes {hivm.vector_function} {
    %c0 = arith.constant 0 : index
    memref.store %v, %dst[%c0] : memref<64xf32, #hivm.address_space<ub>>
    return
  }
  func.func @defined(%v: f32, %out: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : i64
    %y = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
    call @fill(%v, %y) : (f32, memref<64xf32, #hivm.address_space<ub>>) -> ()
    hivm.hir.store ins(%y : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
  func.func @helper(%dst: memref<64xf32, #hivm.address_space<ub>>) {
    return
  }
  func.func @plain(%out: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : i64
    %y = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
    call @helper(%y) : (memref<64xf32, #hivm.address_space<ub>>) -> ()
    hivm.hir.store ins(%y : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}
