// tensor.splat becomes a fill of an empty tensor with the same dynamic sizes.
// RUN: hivm-opt %s --convert-tensor-to-hfusion | FileCheck %s

// CHECK-LABEL: func.func @splats(
// CHECK-SAME: %[[V:.*]]: i32, %[[N:.*]]: index)
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x8xi32>
// CHECK: %[[F0:.*]] = linalg.fill ins(%[[V]] : i32) outs(%[[E0]] : tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?x8xi32>
// CHECK: %[[F1:.*]] = linalg.fill ins(%[[V]] : i32) outs(%[[E1]] : tensor<?x8xi32>) -> tensor<?x8xi32>
// CHECK: return %[[F0]], %[[F1]]
// CHECK-NOT: tensor.splat
func.func @splats(%v: i32, %n: index) -> (tensor<4x8xi32>, tensor<?x8xi32>) {
  %a = tensor.splat %v : tensor<4x8xi32>
  %b = tensor.splat %v[%n] : tensor<?x8xi32>
  return %a, %b : tensor<4x8xi32>, tensor<?x8xi32>
}
