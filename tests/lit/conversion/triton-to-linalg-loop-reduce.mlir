// A K loop over 2-D blocks (Triton's front end, hivm.triton.compile(stage="ttir")):
// the block of pointers crosses the loop as its view plus per-dimension offsets,
// the row sum is a linalg.reduce into a zero-filled accumulator.
// RUN: hivm-opt %s --triton-to-linalg='named-ops=true' | FileCheck %s
module {
  tt.func public @kloop(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %o_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %acc = arith.constant dense<0.000000e+00> : tensor<8x32xf32>
    %c32_i32 = arith.constant 32 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<32> : tensor<8x32xi32>
    %ptrs = arith.constant dense<128> : tensor<8x1xi32>
    %rows = arith.constant 8 : i32
    %rows_0 = tt.get_program_id x : i32
    %rows_1 = arith.muli %rows_0, %rows : i32
    %rows_2 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %rows_3 = tt.splat %rows_1 : i32 -> tensor<8xi32>
    %rows_4 = arith.addi %rows_3, %rows_2 : tensor<8xi32>
    %ptrs_5 = tt.expand_dims %rows_4 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %ptrs_6 = arith.muli %ptrs_5, %ptrs : tensor<8x1xi32>
    %ptrs_7 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<8x1x!tt.ptr<f32>>
    %ptrs_8 = tt.addptr %ptrs_7, %ptrs_6 : tensor<8x1x!tt.ptr<f32>>, tensor<8x1xi32>
    %ptrs_9 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %ptrs_10 = tt.expand_dims %ptrs_9 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %ptrs_11 = tt.broadcast %ptrs_8 : tensor<8x1x!tt.ptr<f32>> -> tensor<8x32x!tt.ptr<f32>>
    %ptrs_12 = tt.broadcast %ptrs_10 : tensor<1x32xi32> -> tensor<8x32xi32>
    %ptrs_13 = tt.addptr %ptrs_11, %ptrs_12 : tensor<8x32x!tt.ptr<f32>>, tensor<8x32xi32>
    %acc_14:2 = scf.for %_ = %c0_i32 to %c128_i32 step %c32_i32 iter_args(%ptrs_15 = %ptrs_13, %acc_16 = %acc) -> (tensor<8x32x!tt.ptr<f32>>, tensor<8x32xf32>)  : i32 {
      %acc_17 = tt.load %ptrs_15 : tensor<8x32x!tt.ptr<f32>>
      %acc_18 = arith.addf %acc_16, %acc_17 : tensor<8x32xf32>
      %ptrs_19 = tt.addptr %ptrs_15, %cst : tensor<8x32x!tt.ptr<f32>>, tensor<8x32xi32>
      scf.yield %ptrs_19, %acc_18 : tensor<8x32x!tt.ptr<f32>>, tensor<8x32xf32>
    }
    %0 = tt.splat %o_ptr : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %1 = tt.addptr %0, %rows_4 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %2 = "tt.reduce"(%acc_14#1) <{axis = 1 : i32}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      %3 = arith.addf %arg2, %arg3 : f32
      tt.reduce.return %3 : f32
    }) : (tensor<8x32xf32>) -> tensor<8xf32>
    tt.store %1, %2 : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL: func.func @kloop(
// CHECK:         %[[ROW0:.*]] = arith.muli %arg7, %c8_i32 : i32
// CHECK:         %[[R:.*]] = arith.index_cast %[[ROW0]] : i32 to index
// CHECK:         %[[START:.*]] = arith.muli %[[R]], %c128 : index
// CHECK:         %[[V0:.*]] = memref.reinterpret_cast %arg2 to offset: {{\[}}%[[START]]{{\]}}, sizes: [8, 32], strides: [%c128, %c1] : memref<?xf32> to memref<8x32xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[LOOP:[^ ]+]]:4 = scf.for %{{[^ ]+}} = %c0_i32 to %c128_i32 step %c32_i32 iter_args(%[[VIEW:[^ ]+]] = %[[V0]], %[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[OFF0:[^ ]+]] = %[[START]], %[[OFF1:[^ ]+]] = %c0) -> (memref<8x32xf32, strided<[?, ?], offset: ?>>, tensor<8x32xf32>, index, index)
// CHECK:           %[[BUF:.*]] = memref.alloc() : memref<8x32xf32>
// CHECK:           memref.copy %[[VIEW]], %[[BUF]]
// CHECK:           %[[T:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK:           %[[SUM:.*]] = arith.addf %[[ACC]], %[[T]] : tensor<8x32xf32>
// CHECK:           %[[STEP:.*]] = arith.addi %[[OFF0]], %c32 : index
// CHECK:           %[[NEXT:.*]] = arith.addi %[[STEP]], %[[OFF1]] : index
// CHECK:           %[[V1:.*]] = memref.reinterpret_cast %arg2 to offset: {{\[}}%[[NEXT]]{{\]}}, sizes: [8, 32], strides: [%c128, %c1]
// CHECK:           scf.yield %[[V1]], %[[SUM]], %[[NEXT]], %c0
// CHECK:         %[[OUT:.*]] = memref.reinterpret_cast %arg3 to offset: {{\[}}%[[R]]{{\]}}, sizes: [8], strides: [1]
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK:         %[[RED:.*]] = linalg.reduce ins(%[[LOOP]]#1 : tensor<8x32xf32>) outs(%[[INIT]] : tensor<8xf32>) dimensions = [1]
// CHECK-NEXT:      (%in: f32, %init: f32) {
// CHECK-NEXT:        %{{.*}} = arith.addf %in, %init : f32
// CHECK:         bufferization.materialize_in_destination %[[RED]] in writable %[[OUT]]
