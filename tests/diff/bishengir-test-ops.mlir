// DIFF-MODE: hivm
func.func @trait_ops(%a: memref<1x16xf16>, %d: memref<8x16xf16>, %c: f16, %t: tensor<8x16xf16>, %i: tensor<16xi32>, %h: tensor<16xf16>) -> tensor<8x16xf16> {
  bishengir_test.broadcastableOTF ins(%a, %c : memref<1x16xf16>, f16) outs(%d : memref<8x16xf16>) broadcast = [0]
  bishengir_test.transposableOTF {note} ins(%d : memref<8x16xf16>) outs(%d : memref<8x16xf16>)
  bishengir_test.vector_scalar_only ins(%d, %c : memref<8x16xf16>, f16) outs(%d : memref<8x16xf16>)
  %r = bishengir_test.elementwise_ternary ins(%t, %t, %t : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>) outs(%t : tensor<8x16xf16>) -> tensor<8x16xf16>
  bishengir_test.element_type_only_f16_i32 ins(%h, %i : tensor<16xf16>, tensor<16xi32>)
  return %r : tensor<8x16xf16>
}
