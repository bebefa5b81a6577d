// DIFF-MODE: hivm
func.func @r(%a: tensor<24xi32>, %o: tensor<1xi32>, %m: memref<16xf16>, %c: f16, %s: memref<1xf16>) -> tensor<1xi32> {
  %3 = hivm.hir.vreduce <sum> ins(%a : tensor<24xi32>) outs(%o : tensor<1xi32>) reduce_dims = [0] -> tensor<1xi32>
  %e = tensor.empty() : tensor<256xf16>
  %1 = hivm.hir.vbrc ins(%c : f16) outs(%e : tensor<256xf16>) -> tensor<256xf16>
  hivm.hir.vbrc ins(%s : memref<1xf16>) outs(%m : memref<16xf16>) broadcast_dims = [0]
  return %3 : tensor<1xi32>
}
