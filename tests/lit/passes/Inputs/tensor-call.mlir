// Used by bufferize-errors.mlir: recursive calls passing tensors are not
// bufferized across function boundaries.
func.func @ping(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %r = call @pong(%t, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @pong(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %r = call @ping(%t, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
