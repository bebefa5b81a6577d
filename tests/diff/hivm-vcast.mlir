// DIFF-MODE: hivm
func.func @c(%a: tensor<24x48xf32>, %o: tensor<24x48xbf16>, %m: memref<2x16xf16>, %n: memref<2x16xi8>) -> tensor<24x48xbf16> {
  %8 = hivm.hir.vcast ins(%a : tensor<24x48xf32>) outs(%o : tensor<24x48xbf16>) round_mode = <rint> -> tensor<24x48xbf16>
  hivm.hir.vcast ins(%m : memref<2x16xf16>) outs(%n : memref<2x16xi8>) round_mode = <floor> cast = <cast_unsigned>
  return %8 : tensor<24x48xbf16>
}
