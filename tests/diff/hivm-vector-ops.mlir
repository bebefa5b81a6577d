// DIFF-MODE: hivm
func.func @v(%a: tensor<128x128xf32>, %b: tensor<128x1xf32>, %m: memref<16xf16>, %n: memref<16xf16>, %t: memref<64xf16>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %0 = hivm.hir.vmul ins(%a, %b : tensor<128x128xf32>, tensor<128x1xf32>) outs(%e : tensor<128x128xf32>) broadcast = [1] -> tensor<128x128xf32>
  hivm.hir.vexp ins(%m : memref<16xf16>) outs(%n : memref<16xf16>)
  hivm.hir.vadd ins(%m, %n : memref<16xf16>, memref<16xf16>) outs(%n : memref<16xf16>) temp_buffer(%t : memref<64xf16>)
  hivm.hir.vtanh ins(%m : memref<16xf16>) outs(%n : memref<16xf16>) transpose = [0]
  return %0 : tensor<128x128xf32>
}
