// one-shot-bufferize on linalg's structured ops (destination-passing
// style): outs become the written buffers, in place when the analysis
// allows; a buffer is copied only when the body reads the out's old value
// (MLIR's payloadUsesValueFromOperand); reading and writing one buffer
// through the same map in an all-parallel op is no conflict.
// RUN: hivm-opt %s --one-shot-bufferize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @elementwise_in_place
// CHECK: %[[T:.+]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T]], %[[T]] : memref<8xf32>, memref<8xf32>) outs(%[[T]] : memref<8xf32>) {
// CHECK: linalg.exp ins(%[[T]] : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// CHECK-NEXT: memref.copy %[[T]], %arg0
#map = affine_map<(d0) -> (d0)>
func.func @elementwise_in_place(%out: memref<8xf32>) {
  %m = memref.alloc() : memref<8xf32>
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = linalg.exp ins(%0 : tensor<8xf32>) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  bufferization.materialize_in_destination %1 in writable %out : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

// The reduction reads its init: written out of place (the init is read
// later), it gets a copy of the init first; the broadcast ignores its out,
// so its fresh buffer is not filled.
// CHECK-LABEL: func.func @reads_of_outs
// CHECK: %[[IN:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK: %[[INIT:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[R:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: memref.copy %[[INIT]], %[[R]]
// CHECK-NEXT: linalg.reduce ins(%[[IN]] : memref<4x8xf32>) outs(%[[R]] : memref<4xf32>) dimensions = [1]
// CHECK: %[[B:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK-NEXT: linalg.broadcast ins(%[[R]] : memref<4xf32>) outs(%[[B]] : memref<4x8xf32>) dimensions = [1]
// CHECK-NEXT: linalg.matmul ins(%[[B]], %arg2 : memref<4x8xf32>, memref<8x8xf32>) outs(%[[IN]] : memref<4x8xf32>)
func.func @reads_of_outs(%o1: memref<4xf32>, %o2: memref<4x8xf32>, %w: memref<8x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %ta = bufferization.to_tensor %a restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %i = memref.alloc() : memref<4xf32>
  %ti = bufferization.to_tensor %i restrict writable : memref<4xf32> to tensor<4xf32>
  %r = linalg.reduce ins(%ta : tensor<4x8xf32>) outs(%ti : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%r : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1]
  %ws = bufferization.to_tensor %w restrict : memref<8x8xf32> to tensor<8x8xf32>
  %m = linalg.matmul ins(%b, %ws : tensor<4x8xf32>, tensor<8x8xf32>) outs(%ta : tensor<4x8xf32>) -> tensor<4x8xf32>
  bufferization.materialize_in_destination %ti in writable %o1 : (tensor<4xf32>, memref<4xf32>) -> ()
  bufferization.materialize_in_destination %m in writable %o2 : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

// -----

// annotation.mark on a tensor (triton-to-linalg marks loaded tensors) marks
// its buffer, as bishengir bufferizes it.
// CHECK-LABEL: func.func @mark
// CHECK: %[[A:.+]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: annotation.mark %[[A]] {MayImplicitTransposeWithLastAxis} : memref<8xf32>
func.func @mark(%o: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %t = bufferization.to_tensor %a restrict writable : memref<8xf32> to tensor<8xf32>
  annotation.mark %t {MayImplicitTransposeWithLastAxis} : tensor<8xf32>
  bufferization.materialize_in_destination %t in writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}
