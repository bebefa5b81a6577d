// Blocks of pointers crossing a loop: one only advanced in the loop (then
// accessed through the advanced pointer) crosses as its offset alone; one
// accessed as it is crosses as its view and offset. The twin runs it.
// Index arithmetic on two constants of which one is a value (the loop's
// stride) folds into a new constant value, as MLIR's folding gives it.
// RUN: hivm-opt %s --triton-to-linalg | FileCheck %s
// RUN: hivm-opt %s --triton-to-linalg -o %t.mlir
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 32 range:0:1
// RUN: hivm-run %t.mlir --entry shift --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:32xf32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=error
module {
  tt.func public @shift(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %eight = arith.constant dense<8> : tensor<8xi32>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x0 = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %o0 = tt.addptr %os, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %res:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%px = %x0, %po = %o0) -> (tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>) {
      %px1 = tt.addptr %px, %eight : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      %v = tt.load %px1 : tensor<8x!tt.ptr<f32>>
      tt.store %po, %v : tensor<8x!tt.ptr<f32>>
      %po1 = tt.addptr %po, %eight : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      scf.yield %px1, %po1 : tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>
    }
    tt.return
  }
  tt.func public @widen(%x: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %x0 = tt.addptr %xs, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%px = %x0) -> (tensor<4x!tt.ptr<f32>>) {
      %e = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
      %eb = tt.broadcast %e : tensor<4x1xi32> -> tensor<4x4xi32>
      %q = tt.expand_dims %px {axis = 1 : i32} : tensor<4x!tt.ptr<f32>> -> tensor<4x1x!tt.ptr<f32>>
      %qb = tt.broadcast %q : tensor<4x1x!tt.ptr<f32>> -> tensor<4x4x!tt.ptr<f32>>
      %p2 = tt.addptr %qb, %eb : tensor<4x4x!tt.ptr<f32>>, tensor<4x4xi32>
      %v = tt.load %p2 : tensor<4x4x!tt.ptr<f32>>
      tt.store %p2, %v : tensor<4x4x!tt.ptr<f32>>
      %four = arith.constant dense<4> : tensor<4xi32>
      %next = tt.addptr %px, %four : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
      scf.yield %next : tensor<4x!tt.ptr<f32>>
    }
    tt.return
  }
}
// CHECK-LABEL: func.func @shift
// CHECK:         %[[O0:[a-z0-9_]+]] = memref.reinterpret_cast %arg3 to offset: [%c0], sizes: [8], strides: [%c1]
// CHECK:         scf.for {{.*}} iter_args(%[[PO:[a-z0-9_]+]] = %[[O0]], %[[XOFF:[a-z0-9_]+]] = %c0, %[[OOFF:[a-z0-9_]+]] = %c0) -> (memref<8xf32, strided<[?], offset: ?>>, index, index) {
// CHECK:           %[[X1:.*]] = arith.addi %[[XOFF]], %c8 : index
// CHECK-NEXT:      %[[XV:.*]] = memref.reinterpret_cast %arg2 to offset: [%[[X1]]], sizes: [8], strides: [%c1]
// CHECK:           memref.copy %[[XV]]
// CHECK:           bufferization.materialize_in_destination %{{.*}} in writable %[[PO]]
// CHECK:           %[[O1:.*]] = arith.addi %[[OOFF]], %c8 : index
// CHECK-NEXT:      %[[OV:.*]] = memref.reinterpret_cast %arg3 to offset: [%[[O1]]]
// CHECK-NEXT:      scf.yield %[[OV]], %[[X1]], %[[O1]]
// OUT: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK-LABEL: func.func @widen
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT:     arith.addi %c1, %c1
// CHECK:         memref.reinterpret_cast %arg2 to offset: [%{{.*}}], sizes: [4, 4], strides: [%[[C2]], 0]
