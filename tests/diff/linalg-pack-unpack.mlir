// linalg.pack and linalg.unpack: tiles given as constants and as values,
// padding, a permuted outer tile order, attributes, and pack/unpack round
// trips of shapes with dynamic sizes.
func.func @relayout(%src: tensor<100x60xf32>, %packed: tensor<4x13x8x16xf32>, %pad: f32,
                    %back: tensor<100x60xf32>, %k: index, %dyn: tensor<?x?x?x16xf32>) -> tensor<100x60xf32> {
  %0 = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %packed : tensor<100x60xf32> -> tensor<4x13x8x16xf32>
  %1 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %back : tensor<4x13x8x16xf32> -> tensor<100x60xf32>
  %2 = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%k, 16] into %dyn {tag} : tensor<100x60xf32> -> tensor<?x?x?x16xf32>
  %3 = linalg.unpack %2 inner_dims_pos = [0, 1] inner_tiles = [%k, 16] into %back : tensor<?x?x?x16xf32> -> tensor<100x60xf32>
  return %1 : tensor<100x60xf32>
}

func.func @exact(%a: tensor<32x8x4xi8>, %b: tensor<32x2x4x4xi8>, %c: tensor<?x8xi8>, %d: tensor<?x8x2x4xi8>) -> tensor<?x8x2x4xi8> {
  %0 = linalg.pack %a inner_dims_pos = [1] inner_tiles = [4] into %b : tensor<32x8x4xi8> -> tensor<32x2x4x4xi8>
  %1 = linalg.pack %c outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 4] into %d : tensor<?x8xi8> -> tensor<?x8x2x4xi8>
  return %1 : tensor<?x8x2x4xi8>
}
