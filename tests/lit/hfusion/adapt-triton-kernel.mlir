// The kernel triton-to-linalg makes becomes a HACC device entry; helper
// declarations and plain functions are left alone.
// RUN: hivm-opt %s --split-input-file --adapt-triton-kernel | FileCheck %s

// CHECK-LABEL: func.func private @helper(f32) -> f32
// CHECK-NOT: hacc
// CHECK-LABEL: func.func @add_kernel(
// CHECK-SAME: %{{.*}}: memref<?xi8> {hacc.arg_type = #hacc.arg_type<sync_block_lock>}
// CHECK-SAME: %{{.*}}: memref<?xi8> {hacc.arg_type = #hacc.arg_type<workspace>}
// CHECK-SAME: %{{.*}}: memref<?xi32> {tt.divisibility = 16 : i32}
// CHECK-SAME: attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, mix_mode = "aiv", parallel_mode = "simd"}
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: hacc.entry
module {
  func.func private @helper(f32) -> f32
  func.func @add_kernel(%lock: memref<?xi8>, %ws: memref<?xi8>, %a: memref<?xi32> {tt.divisibility = 16 : i32}, %n: i32)
      attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    return
  }
  func.func @not_a_kernel(%x: i32) {
    return
  }
}

// -----

// Library calls become hfusion ops; a declaration goes with its last call,
// a call of an unrelated function stays.
// CHECK-LABEL: func.func @library
// CHECK-NOT: func.func private @triton_print_x
// CHECK: hfusion.print "x = " {hex = false} %{{.*}} : i32
// CHECK: hfusion.print "x = " {hex = false} %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.extui %{{.*}} : tensor<8xi1> to tensor<8xi8>
// CHECK: hfusion.assert "bad" %[[M]] : tensor<8xi8>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: hfusion.gather ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<2x3xi32>) outs(%[[E]] : tensor<2x3xf32>) axis = 1 -> tensor<2x3xf32>
// CHECK: hfusion.cumsum %{{.*}} : tensor<2x8xf32> cum_dims = [1] reverse = true -> tensor<2x8xf32>
// CHECK: hfusion.sort {{.*}}descending = false sort_axis = 0
// CHECK: hfusion.flip %{{.*}} : tensor<2x8xf32> flip_axis = 1 -> tensor<2x8xf32>
// CHECK: call @my_print
module {
  func.func private @triton_print_x(i32) attributes {hex = false, prefix = "x = "}
  func.func private @triton_assert_0(tensor<8xi1>) attributes {msg = "bad"}
  func.func private @triton_gather_0(tensor<2x8xf32>, tensor<2x3xi32>, i32) -> tensor<2x3xf32>
  func.func private @triton_cumsum_0(tensor<2x8xf32>, i32, i1) -> tensor<2x8xf32>
  func.func private @triton_sort_0(tensor<2x8xf32>, i64, i1) -> tensor<2x8xf32>
  func.func private @triton_flip_0(tensor<2x8xf32>, i64) -> tensor<2x8xf32>
  func.func private @my_print(i32)
  func.func @library(%x: i32, %c: tensor<8xi1>, %s: tensor<2x8xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
    %c1_i32 = arith.constant 1 : i32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %true = arith.constant true
    %false = arith.constant false
    func.call @triton_print_x(%x) : (i32) -> ()
    func.call @triton_print_x(%x) : (i32) -> ()
    func.call @triton_assert_0(%c) : (tensor<8xi1>) -> ()
    %g = func.call @triton_gather_0(%s, %i, %c1_i32) : (tensor<2x8xf32>, tensor<2x3xi32>, i32) -> tensor<2x3xf32>
    %cs = func.call @triton_cumsum_0(%s, %c1_i32, %true) : (tensor<2x8xf32>, i32, i1) -> tensor<2x8xf32>
    %so = func.call @triton_sort_0(%s, %c0_i64, %false) : (tensor<2x8xf32>, i64, i1) -> tensor<2x8xf32>
    %fl = func.call @triton_flip_0(%s, %c1_i64) : (tensor<2x8xf32>, i64) -> tensor<2x8xf32>
    func.call @my_print(%x) : (i32) -> ()
    return %g, %cs, %so, %fl : tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
  }
}

// -----

// An i32 loop bound to sub-blocks is normalised to index bounds; what it
// carries is kept.
// CHECK-LABEL: func.func @sub_block
// CHECK: %[[LB:[^ ]+]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[UB:[^ ]+]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[ST:[^ ]+]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: scf.for %[[IV:[^ ]+]] = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}) -> (i32) {
// CHECK-NEXT: %[[I:[^ ]+]] = arith.index_cast %[[IV]] : index to i32
// CHECK-NEXT: arith.addi %[[ACC]], %[[I]] : i32
// CHECK: } {hfusion.bind_sub_block}
func.func @sub_block(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %s = arith.addi %acc, %i : i32
    scf.yield %s : i32
  } {bind_sub_block = true}
  return %r : i32
}
