// linalg.fill on tensors has no memory effects, so CSE merges two equal
// ones (comparing their bodies, as MLIR's CSE compares ops with regions);
// fills into memrefs write memory and stay.
// RUN: hivm-opt %s --cse | FileCheck %s
func.func @tensors(%a: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.fill ins(%a : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.fill ins(%a : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @tensors
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NOT:     linalg.fill
// CHECK:         return %[[F]], %[[F]]

func.func @memrefs(%a: f32, %m: memref<4xf32>) {
  linalg.fill ins(%a : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%a : f32) outs(%m : memref<4xf32>)
  return
}
// CHECK-LABEL: func.func @memrefs
// CHECK:         linalg.fill
// CHECK-NEXT:    linalg.fill
