// Sparse tensor encodings in every spelling the parser takes (renamed
// variables, level declarations, dimension expressions, slices, symbols,
// bit widths, stored and implicit values), each printed in canonical form
// through `#sparse` aliases numbered in order of first use.
#vector = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#csc = #sparse_tensor.encoding<{
  map = (row, col) -> (col : dense,   // columns first
                       row : compressed),
  posWidth = 32, crdWidth = 16,
}>
#coo = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed(nonunique, nonordered), d1 : singleton(nonunique, soa), d2 : singleton(soa)) }>
#bsr = #sparse_tensor.encoding<{
  map = {ib, jb, ii, jj} (i = ib * 2 + ii, j = jb * 3 + jj) ->
        (ib = i floordiv 2 : dense, jb = j floordiv 3 : compressed,
         ii = i mod 2 : dense, jj = j mod 3 : dense)
}>
#nv24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
#batched = #sparse_tensor.encoding<{ map = (b, i, j) -> (b : batch, i : dense, j : loose_compressed), crdWidth = 8 : i8 }>
#sliced = #sparse_tensor.encoding<{ map = (d0 : #sparse_tensor<slice(1, 4, 1)>, d1 : #sparse_tensor<slice( 0 , ? , 2 )>) -> (d0 : dense, d1 : compressed) }>
#half = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(2, ?, ?)>, j) -> (i : compressed, j : dense) }>
#symbolic = #sparse_tensor.encoding<{ map = [s](i, j) -> (i * (s * 4) : dense, -(-i) : dense, j + 0 : compressed) }>
#valued = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 1.5 : f32, implicitVal = -0.0 : f32 }>
#ints = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 255 : i8, implicitVal = 0 : i8 }>
#cplx = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = #complex.number<:f64 1.0, -2.5>, implicitVal = #complex.number<:f64 0.0, 0.0> }>
#map = affine_map<(d0, d1) -> (d1, d0)>

func.func @signature(%v: tensor<?xf64, #vector>, %csc: tensor<4x8xf32, #csc>, %coo: tensor<?x?x?xf32, #coo>,
                     %bsr: tensor<6x9xf32, #bsr>, %nv: tensor<8x16xf16, #nv24>, %b: tensor<2x3x4xi32, #batched>,
                     %s: tensor<8x8xf32, #sliced>, %h: tensor<8x8xf32, #half>, %y: tensor<4x4xf32, #symbolic>,
                     %val: tensor<8xf32, #valued>, %i: tensor<8xi8, #ints>, %c: tensor<8xcomplex<f64>, #cplx>)
    -> tensor<4x8xf32, #csc> attributes {layout = #map, slice = #sparse_tensor<slice(0, 1, ?)>, verbose = #sparse_tensor<encoding<{ map = (d0) -> (d0 : dense) }>>} {
  %e = tensor.empty() : tensor<4x8xf32, #sparse_tensor.encoding<{ map = (a, b) -> (a : dense, b : compressed) }>>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %csc, %c1 : tensor<4x8xf32, #csc>
  return %csc : tensor<4x8xf32, #csc>
}
