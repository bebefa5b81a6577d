// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: hivm.hir.pointer_cast(%c0_i64, %c16_i64) : memref<16xf16, #hivm.address_space<ub>>
// CHECK: hivm.hir.load ins(%arg0 : memref<16xf16, #hivm.address_space<gm>>) outs(%0 : memref<16xf16, #hivm.address_space<ub>>) eviction_policy = <EvictFirst>
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %arg1]
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK: hivm.hir.store ins(%0 : memref<16xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16xf16, #hivm.address_space<gm>>) atomic = <add>
// CHECK: %2 = hivm.hir.copy ins(%0 : memref<16xf16, #hivm.address_space<ub>>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %3 = hivm.hir.get_block_idx -> i64
// CHECK: annotation.mark %0 {hivm.multi_buffer = 2 : i32} : memref<16xf16, #hivm.address_space<ub>>
// CHECK: annotation.mark %0 {effects = ["write", "read"]} keys = ["k"] values = [%3 : i64] : memref<16xf16, #hivm.address_space<ub>>
func.func @ops(%gm: memref<16xf16, #hivm.address_space<gm>>, %e: i64, %t: tensor<16xf16>) -> tensor<16xf16> {
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %ub = hivm.hir.pointer_cast(%c0, %c16) [] : memref<16xf16, #hivm.address_space<ub>>
  %ub2 = hivm.hir.pointer_cast(%c0) : memref<16xf16, #hivm.address_space<ub>>
  hivm.hir.load ins(%gm : memref<16xf16, #hivm.address_space<gm>>) outs(%ub : memref<16xf16, #hivm.address_space<ub>>) eviction_policy = <EvictFirst>
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %e]
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%gm : memref<16xf16, #hivm.address_space<gm>>) atomic = <add>
  %r = hivm.hir.copy ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%t : tensor<16xf16>) -> tensor<16xf16>
  %i = hivm.hir.get_block_idx -> i64
  %s = hivm.hir.get_sub_block_idx -> i64
  annotation.mark %ub {hivm.multi_buffer = 2 : i32} : memref<16xf16, #hivm.address_space<ub>>
  annotation.mark %ub {effects = ["write", "read"]} keys = ["k"] values = [%i : i64] : memref<16xf16, #hivm.address_space<ub>>
  return %r : tensor<16xf16>
}
