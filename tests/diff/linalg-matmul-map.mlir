// linalg.matmul (its body built with casts to the accumulator type, default
// indexing maps elided) and linalg.map (short and long forms), as mlir-opt
// prints them.
func.func @m(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>, %ai: tensor<4x8xi8>, %bi: tensor<8x16xi8>, %ci: tensor<4x16xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>, %mm: memref<4x8xf32>, %mb: memref<8x16xf32>, %mc: memref<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.matmul ins(%ai, %bi : tensor<4x8xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  linalg.matmul ins(%mm, %mb : memref<4x8xf32>, memref<8x16xf32>) outs(%mc : memref<4x16xf32>)
  %2 = linalg.map { arith.negf } ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>)
  %3 = linalg.map ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>)
    (%p: f32, %q: f32, %r: f32) {
      %s = arith.mulf %q, %p : f32
      linalg.yield %s : f32
    }
  %4 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ai, %bi : tensor<4x8xi8>, tensor<8x16xi8>) outs(%ci : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0, %1, %3 : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4xf32>
}
