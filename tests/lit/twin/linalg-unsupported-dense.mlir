// A tensor constant that is not a splat: the twin cannot materialize it yet.
// RUN: not hivm-run %s --arg zeros:4xf32 2>&1 | FileCheck %s

// CHECK: linalg-unsupported-dense.mlir:[[# @LINE + 2]]:8: error: 'arith.constant' with a tensor that is not a splat is not supported by the CPU twin yet
func.func @dense_constant(%out: memref<4xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  bufferization.materialize_in_destination %c in writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}
