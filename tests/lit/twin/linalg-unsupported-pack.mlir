// A linalg op without a loop nest on tensors: bufferization stops at it.
// RUN: not hivm-run %s --arg zeros:4xf32 2>&1 | FileCheck %s

// CHECK: linalg-unsupported-pack.mlir:[[# @LINE + 4]]:8: error: 'linalg.pack' op has tensor operands or results (not supported by hivm-opt's one-shot-bufferize yet)
func.func @pack(%out: memref<4xf32>) {
  %t = bufferization.to_tensor %out restrict writable : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pack %t inner_dims_pos = [0] inner_tiles = [2] into %e : tensor<4xf32> -> tensor<2x2xf32>
  return
}
