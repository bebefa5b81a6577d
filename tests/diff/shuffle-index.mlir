// vector.shuffle (the 'operands' directive, result type inferred from the mask)
// and linalg.index, as mlir-opt prints them.
func.func @shuffles(%a: vector<2xf32>, %b: vector<3xf32>, %s: vector<f32>, %m: vector<2x4xi8>) -> (vector<4xf32>, vector<2xf32>, vector<3x4xi8>) {
  %0 = vector.shuffle %a, %b [4, 0, 2, 1] : vector<2xf32>, vector<3xf32>
  %1 = vector.shuffle %s, %s [1, 0] : vector<f32>, vector<f32>
  %2 = vector.shuffle %m, %m [3, 0, 1] : vector<2x4xi8>, vector<2x4xi8>
  return %0, %1, %2 : vector<4xf32>, vector<2xf32>, vector<3x4xi8>
}
func.func @indices(%t: tensor<4x8xindex>) -> tensor<4x8xindex> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<4x8xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  } -> tensor<4x8xindex>
  return %0 : tensor<4x8xindex>
}
