// linalg bodies see a vector operand as itself (only tensors and memrefs give their elements).
func.func @f(%v: vector<2x4xf32>, %w: vector<4xf32>) -> tensor<vector<2x4xf32>> {
  %e = tensor.empty() : tensor<vector<2x4xf32>>
  %1 = linalg.fill ins(%v : vector<2x4xf32>) outs(%e : tensor<vector<2x4xf32>>) -> tensor<vector<2x4xf32>>
  %m = tensor.empty() : tensor<3xvector<4xf32>>
  return %1 : tensor<vector<2x4xf32>>
}
