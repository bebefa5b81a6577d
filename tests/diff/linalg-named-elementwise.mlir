func.func @f(%a: tensor<4x8xf32>, %b: tensor<?x8xf32>, %s: tensor<2xi64>, %c: memref<4x8xf32>, %d: memref<4x8xf32>, %h: tensor<4x8xf16>, %k: tensor<4x8xi1>, %i: tensor<4x8xi32>) -> tensor<?x8xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<4x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = tensor.reshape %a(%s) : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<8x4xf32>
  linalg.copy ins(%c : memref<4x8xf32>) outs(%d : memref<4x8xf32>)
  %e = tensor.empty() : tensor<4x8xf32>
  %2 = linalg.add ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.max ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.copy ins(%h : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = linalg.select ins(%k, %a, %a : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = linalg.mul ins(%k, %k : tensor<4x8xi1>, tensor<4x8xi1>) outs(%k : tensor<4x8xi1>) -> tensor<4x8xi1>
  %8 = linalg.div_unsigned ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %9 = linalg.reciprocal ins(%h : tensor<4x8xf16>) outs(%h : tensor<4x8xf16>) -> tensor<4x8xf16>
  %10 = linalg.square ins(%h : tensor<4x8xf16>) outs(%h : tensor<4x8xf16>) -> tensor<4x8xf16>
  %11 = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%k : tensor<4x8xi1>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %12 = linalg.abs ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = linalg.negf ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<?x8xf32>
}
