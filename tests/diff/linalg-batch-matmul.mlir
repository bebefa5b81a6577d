// linalg.batch_matmul: the default batch maps, casts in the body, and
// explicit maps printed before the operands (as mlir-opt 22 prints them).
func.func @f(%b: memref<2x4x8xf32>, %c: memref<2x8x3xf32>, %d: memref<2x4x3xf32>, %e: memref<2x4x8xf16>, %t: tensor<2x4x8xi8>, %u: tensor<2x8x3xi8>, %v: tensor<2x4x3xi32>, %w: tensor<2x8x4xi8>) -> tensor<2x4x3xi32> {
  linalg.batch_matmul ins(%b, %c : memref<2x4x8xf32>, memref<2x8x3xf32>) outs(%d : memref<2x4x3xf32>)
  linalg.batch_matmul ins(%e, %c : memref<2x4x8xf16>, memref<2x8x3xf32>) outs(%d : memref<2x4x3xf32>)
  %r = linalg.batch_matmul ins(%t, %u : tensor<2x4x8xi8>, tensor<2x8x3xi8>) outs(%v : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%w, %u : tensor<2x8x4xi8>, tensor<2x8x3xi8>) outs(%v : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
  return %r : tensor<2x4x3xi32>
}
