// tensor.pad (with nofold), tensor.generate, tensor.yield and tensor.rank:
// region-carrying ops defined declaratively ($region in the format), as
// mlir-opt prints them.
func.func @t(%t: tensor<?x4xf32>, %n: index, %f: f32) -> (tensor<?x8xf32>, tensor<?x3xindex>, index, tensor<2x6xf32>) {
  %p = tensor.pad %t low[0, 2] high[%n, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %f : f32
  } : tensor<?x4xf32> to tensor<?x8xf32>
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    tensor.yield %s : index
  } : tensor<?x3xindex>
  %r = tensor.rank %t : tensor<?x4xf32>
  %c = arith.constant dense<1.0> : tensor<2x4xf32>
  %q = tensor.pad %c nofold low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %f : f32
  } : tensor<2x4xf32> to tensor<2x6xf32>
  return %p, %g, %r, %q : tensor<?x8xf32>, tensor<?x3xindex>, index, tensor<2x6xf32>
}
