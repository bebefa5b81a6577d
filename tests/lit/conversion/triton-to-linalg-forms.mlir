// Forms around the kernels: several kernels each in its own module (the
// parser wraps them in one implicit module) are all converted, and a
// barrier stays where the kernel put it.
// RUN: hivm-opt %s --triton-to-linalg='global-kernel=false' | FileCheck %s
module {
  tt.func public @first(%p: !tt.ptr<i32>, %v: i32) {
    tt.store %p, %v : !tt.ptr<i32>
    tt.return
  }
}
module {
  tt.func public @second(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %x = tt.load %p : !tt.ptr<f16>
    gpu.barrier
    tt.store %q, %x : !tt.ptr<f16>
    tt.return
  }
}
// CHECK:       module {
// CHECK:         module {
// CHECK:           func.func @first(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xi32> {tt.tensor_kind = 1 : i32}, %arg3: i32,
// CHECK-SAME:        global_kernel = "local"
// CHECK-NOT:       tt.
// CHECK:         module {
// CHECK:           func.func @second(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf16> {tt.tensor_kind = 0 : i32}, %arg3: memref<?xf16> {tt.tensor_kind = 1 : i32},
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%c0] : memref<1xf16, strided<[1]>>
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        tensor.empty
// CHECK-NEXT:        linalg.fill ins(%[[X]] : f16)
// CHECK-NOT:       tt.

// A block with unit dimensions (here a scalar pointer splat to 1x1): the view
// strides them by the extent inside them, not 0, as upstream's views do.
module {
  tt.func public @unit_dims(%p: !tt.ptr<f32>, %v: f32) {
    %t = tt.splat %v : f32 -> tensor<1x1xf32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
    tt.store %ps, %t : tensor<1x1x!tt.ptr<f32>>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %qs = tt.splat %p : !tt.ptr<f32> -> tensor<1x4x!tt.ptr<f32>>
    %q = tt.addptr %qs, %e : tensor<1x4x!tt.ptr<f32>>, tensor<1x4xi32>
    %w = tt.splat %v : f32 -> tensor<1x4xf32>
    tt.store %q, %w : tensor<1x4x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL:     func.func @unit_dims
// CHECK:             memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 1], strides: [1, 1] : memref<?xf32> to memref<1x1xf32, strided<[1, 1]>>
// CHECK:             memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 4], strides: [4, 1] : memref<?xf32> to memref<1x4xf32, strided<[4, 1]>>

// A block of pointers advanced in a loop: its next view is made at the
// addptr, where the Triton op stood, and yielded from there.
module {
  tt.func public @advance(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %p0 = tt.addptr %ps, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %q0 = tt.addptr %qs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %res:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%pa = %p0, %n = %c0) -> (tensor<8x!tt.ptr<f32>>, index) {
      %v = tt.load %pa : tensor<8x!tt.ptr<f32>>
      tt.store %q0, %v : tensor<8x!tt.ptr<f32>>
      %c8 = arith.constant dense<8> : tensor<8xi32>
      %next = tt.addptr %pa, %c8 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      %n1 = arith.addi %n, %c1 : index
      scf.yield %next, %n1 : tensor<8x!tt.ptr<f32>>, index
    }
    tt.return
  }
}
// CHECK-LABEL:     func.func @advance
// CHECK:             scf.for {{.*}} iter_args(%[[VIEW:.*]] = %{{.*}}, %[[N:.*]] = %c0, %[[OFF:.*]] = %c0) -> (memref<8xf32, strided<[?], offset: ?>>, index, index)
// CHECK:               memref.copy %[[VIEW]]
// CHECK:               %[[NEXT:.*]] = arith.addi %[[OFF]], %c8 : index
// CHECK-NEXT:          %[[NEXTVIEW:.*]] = memref.reinterpret_cast %arg2 to offset: [%[[NEXT]]], sizes: [8], strides: [%c1]
// CHECK-NEXT:          %[[N1:.*]] = arith.addi %[[N]], %c1 : index
// CHECK-NEXT:          scf.yield %[[NEXTVIEW]], %[[N1]], %[[NEXT]]

// A splat of a constant is a constant tensor: its fill goes to the top of the
// function (where upstream's folding puts the constant), here out of the loop.
module {
  tt.func public @splat_const(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %two = arith.constant 2.0 : f32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %pp : tensor<4x!tt.ptr<f32>>
      %t = tt.splat %two : f32 -> tensor<4xf32>
      %w = arith.mulf %v, %t : tensor<4xf32>
      tt.store %pp, %w : tensor<4x!tt.ptr<f32>>
    }
    tt.return
  }
}
// CHECK-LABEL:     func.func @splat_const
// CHECK-NEXT:        %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:             %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:        %[[T:.*]] = linalg.fill ins(%[[TWO]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK:             scf.for
// CHECK-NOT:           linalg.fill
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %[[T]] :
