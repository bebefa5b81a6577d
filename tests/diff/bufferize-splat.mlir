// DIFF-ARGS: -one-shot-bufferize
// tensor.splat becomes a fresh buffer filled by a linalg.map yielding the
// scalar (dynamic sizes from its operands).
func.func @f(%s: f32, %n: index, %o: memref<8xf32>, %o2: memref<?x4xf32>) {
  %t = tensor.splat %s : tensor<8xf32>
  %u = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  bufferization.materialize_in_destination %u in writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
  %d = tensor.splat %s[%n] : tensor<?x4xf32>
  bufferization.materialize_in_destination %d in writable %o2 : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
  return
}
