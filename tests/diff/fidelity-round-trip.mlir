// Rules found by running MLIR's own round-trip tests through both tools:
// layouts that are identities up to unused symbols are dropped; `e - (e
// floordiv q) * q` folds to `e mod q`; two dims (or symbols) are summed and
// multiplied in position order; an empty tensor.from_elements keeps the
// format's space; 0-d masks take one size; constant globals may be
// uninitialized; a generic op's attributes may come from an alias; a map
// whose body yields an input keeps its long form.
#trait = {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
#sym_identity = affine_map<(d0, d1)[s0] -> (d0, d1)>
#folds = affine_map<(d0, d1, d2)[s0, s1] -> (d0 - d0 floordiv 4 * 4, d1 - (d1 floordiv (s0 * 4)) * (s0 * 4), d2 + d1 + d0, s1 + s0 + d0)>
#products = affine_map<(d0)[s0, s1] -> (d0 * (s1 * s0))>
memref.global "private" constant @uninit : memref<2xf32> = uninitialized
func.func private @layouts(memref<2x4xi8, #sym_identity, 1>, memref<4x4x4xf32, #folds>, memref<4xf32, #products>)
func.func @ops(%t: tensor<4xf32>, %u: tensor<4xf32>) -> (tensor<0xindex>, vector<i1>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.from_elements : tensor<0xindex>
  %m = vector.constant_mask [0] : vector<i1>
  %g = linalg.generic #trait ins(%t : tensor<4xf32>) outs(%u : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %k = linalg.map ins(%t, %u : tensor<4xf32>, tensor<4xf32>) outs(%u : tensor<4xf32>)
    (%a: f32, %b: f32, %c: f32) {
      %x = arith.maximumf %a, %b : f32
      linalg.yield %a : f32
    }
  return %e, %m, %g, %k : tensor<0xindex>, vector<i1>, tensor<4xf32>, tensor<4xf32>
}
