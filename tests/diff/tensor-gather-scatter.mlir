// tensor.gather and tensor.scatter: slices at the coordinates of an index
// tensor, keeping the gathered dimensions as 1s or dropping them.
func.func @gather(%src: tensor<8x6x4xbf16>, %idx: tensor<5x1xindex>, %idx2: tensor<2x3x2xi64>, %dyn: tensor<?x2xi32>) {
  %0 = tensor.gather %src[%idx] gather_dims([1]) : (tensor<8x6x4xbf16>, tensor<5x1xindex>) -> tensor<5x8x1x4xbf16>
  %1 = tensor.gather %src[%idx] gather_dims([1]) unique : (tensor<8x6x4xbf16>, tensor<5x1xindex>) -> tensor<5x8x4xbf16>
  %2 = tensor.gather %src[%idx2] gather_dims([0, 2]) {tag} : (tensor<8x6x4xbf16>, tensor<2x3x2xi64>) -> tensor<2x3x1x6x1xbf16>
  %3 = tensor.gather %src[%dyn] gather_dims([0, 1]) : (tensor<8x6x4xbf16>, tensor<?x2xi32>) -> tensor<?x4xbf16>
  return
}

func.func @scatter(%dst: tensor<8x6x4xbf16>, %idx: tensor<5x1xindex>, %upd: tensor<5x8x1x4xbf16>, %small: tensor<5x8x4xbf16>) -> tensor<8x6x4xbf16> {
  %0 = tensor.scatter %upd into %dst[%idx] scatter_dims([1]) unique : (tensor<5x8x1x4xbf16>, tensor<8x6x4xbf16>, tensor<5x1xindex>) -> tensor<8x6x4xbf16>
  %1 = tensor.scatter %small into %0[%idx] scatter_dims([1]) unique {tag} : (tensor<5x8x4xbf16>, tensor<8x6x4xbf16>, tensor<5x1xindex>) -> tensor<8x6x4xbf16>
  return %1 : tensor<8x6x4xbf16>
}
