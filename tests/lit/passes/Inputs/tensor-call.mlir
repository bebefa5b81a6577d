// Used by bufferize-errors.mlir: calls passing tensors need the analysis
// across functions, which is not implemented.
func.func @callee(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}

func.func @caller(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @callee(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
