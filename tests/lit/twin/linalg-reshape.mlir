// tensor.reshape (triton-to-linalg's tt.reshape, with a constant shape
// tensor) bufferizes to memref.reshape; a strided source is copied first.
// RUN: python3 %root/scripts/npy.py %t.npy f32 8 range:0:1
// RUN: hivm-run %s --arg %t.npy --arg zeros:8xf32 --arg zeros:2x4xf32 --print 1 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: [-2, -3, -4, -5, 4, 5, 6, 7]
// CHECK-NEXT: {{\[\[}}0, 10, 20, 30],
// CHECK-NEXT: [40, 50, 60, 70]]

func.func @reshapes(%i: memref<8xf32>, %o: memref<8xf32>, %o2: memref<2x4xf32>) {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %i, %a : memref<8xf32> to memref<8xf32>
  %t = bufferization.to_tensor %a restrict writable : memref<8xf32> to tensor<8xf32>
  %shape = arith.constant dense<[2, 4]> : tensor<2xi64>
  %r = tensor.reshape %t(%shape) : (tensor<8xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %x = linalg.transpose ins(%r : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) permutation = [0, 1]
  %c = arith.constant dense<10.0> : tensor<2x4xf32>
  %x2 = arith.mulf %x, %c : tensor<2x4xf32>
  bufferization.materialize_in_destination %x2 in writable %o2 : (tensor<2x4xf32>, memref<2x4xf32>) -> ()
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %shape2 = arith.constant dense<[4, 1]> : tensor<2xi64>
  %r2 = tensor.reshape %s(%shape2) : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x1xf32>
  %y = linalg.negf ins(%r2 : tensor<4x1xf32>) outs(%e2 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %shape3 = arith.constant dense<[4]> : tensor<1xi64>
  %r3 = tensor.reshape %y(%shape3) : (tensor<4x1xf32>, tensor<1xi64>) -> tensor<4xf32>
  %ins = tensor.insert_slice %r3 into %t[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  bufferization.materialize_in_destination %ins in writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}
