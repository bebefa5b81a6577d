// Upstream's HIVM op traits, on the `bishengir_test` ops that carry one
// each and on the HIVM vector ops: same rank, elementwise arity and shapes,
// broadcast and transpose on the fly, element-type constraints.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @ok(%a: memref<4x16xf16>, %b: memref<?x16xf16>, %c: f16, %t: tensor<?x?xf16>) -> tensor<?x?xf16> {
  bishengir_test.elementwise_binary ins(%a, %b : memref<4x16xf16>, memref<?x16xf16>) outs(%a : memref<4x16xf16>)
  bishengir_test.vector_scalar_only ins(%a, %c : memref<4x16xf16>, f16) outs(%a : memref<4x16xf16>)
  %r = bishengir_test.elementwise_unary ins(%t : tensor<?x?xf16>) outs(%t : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

func.func @rank(%a: tensor<8xf16>, %b: tensor<2x8xf16>) {
  // expected-error@+1 {{'bishengir_test.elementwise_binary' op operands must have same rank}}
  %r = bishengir_test.elementwise_binary ins(%a, %b : tensor<8xf16>, tensor<2x8xf16>) outs(%b : tensor<2x8xf16>) -> tensor<2x8xf16>
  return
}

// -----

func.func @arity(%a: memref<8xf16>) {
  // expected-error@+1 {{elementwise op expected 3 inputs, but found 2}}
  bishengir_test.elementwise_ternary ins(%a, %a : memref<8xf16>, memref<8xf16>) outs(%a : memref<8xf16>)
  return
}

// -----

func.func @shapes(%a: memref<8xf16>, %b: memref<4xf16>) {
  // expected-error@+1 {{operands' shape are inconsistent}}
  bishengir_test.elementwise_unary ins(%a : memref<8xf16>) outs(%b : memref<4xf16>)
  return
}

// -----

func.func @vector_only(%c: f16, %a: memref<8xf16>) {
  // expected-error@+1 {{failed to verify that operand at index 0 is vector-only}}
  bishengir_test.vector_scalar_only ins(%c, %a : f16, memref<8xf16>) outs(%a : memref<8xf16>)
  return
}

// -----

func.func @broadcast_ok(%a: memref<1x16xf16>, %d: memref<8x16xf16>) {
  bishengir_test.broadcastableOTF ins(%a : memref<1x16xf16>) outs(%d : memref<8x16xf16>) broadcast = [0]
  // expected-error@+1 {{input operand's non-broadcast dim does not match with output}}
  bishengir_test.broadcastableOTF ins(%a : memref<1x16xf16>) outs(%d : memref<8x16xf16>) broadcast = [1]
  return
}

// -----

func.func @broadcast_rank(%a: memref<1x16xf16>, %d: memref<8x16xf16>) {
  // expected-error@+1 {{broadcast dim exceeds op's rank}}
  hivm.hir.vadd ins(%a, %a : memref<1x16xf16>, memref<1x16xf16>) outs(%d : memref<8x16xf16>) broadcast = [5]
  return
}

// -----

func.func @transpose_perm(%a: memref<4x8x16xf16>, %d: memref<8x4x16xf16>) {
  // expected-error@+1 {{expects 'transpose' to be a permutation, found 1, 1, 2}}
  bishengir_test.transposableOTF ins(%a : memref<4x8x16xf16>) outs(%d : memref<8x4x16xf16>) transpose = [1, 1, 2]
  return
}

// -----

func.func @transpose_shapes(%a: memref<4x8x16xf16>, %d: memref<8x4x16xf16>) {
  bishengir_test.transposableOTF ins(%a : memref<4x8x16xf16>) outs(%d : memref<8x4x16xf16>) transpose = [1, 0, 2]
  // expected-error@+1 {{'hivm.hir.vexp' op failed to verify transpose behavior at 1 1}}
  hivm.hir.vexp ins(%a : memref<4x8x16xf16>) outs(%d : memref<8x4x16xf16>) transpose = [0, 1, 2]
  return
}

// -----

func.func @last_dim(%a: memref<8x16xf16>, %d: memref<16x8xf16>) {
  // expected-error@+1 {{'hivm.hir.vmul' op transpose dim is the last dimension}}
  hivm.hir.vmul ins(%a, %a : memref<8x16xf16>, memref<8x16xf16>) outs(%d : memref<16x8xf16>) transpose = [1, 0]
  return
}

// -----

func.func @vector_arity(%a: memref<8xf16>) {
  // expected-error@+1 {{'hivm.hir.vadd' op elementwise op expected 2 inputs, but found 1}}
  hivm.hir.vadd ins(%a : memref<8xf16>) outs(%a : memref<8xf16>)
  return
}

// -----

func.func @element_types(%a: memref<16xf32>, %b: memref<16xi8>, %c: tensor<4xcomplex<f32>>) {
  bishengir_test.element_type_only_f16f32_i8i32 ins(%a, %b : memref<16xf32>, memref<16xi8>)
  // expected-error@+1 {{failed to verify that operand at idx 1 should have element type 8-bit signless integer or 32-bit signless integer}}
  bishengir_test.element_type_only_f16f32_i8i32 ins(%a, %a : memref<16xf32>, memref<16xf32>)
  return
}

// -----

func.func @element_kinds(%i: tensor<4xui8>, %c: tensor<4xcomplex<f32>>) {
  // expected-error@+1 {{'bishengir_test.element_type_only_int_float' op failed to verify that operand at idx 1 should have element type floating-point}}
  bishengir_test.element_type_only_int_float ins(%i, %c : tensor<4xui8>, tensor<4xcomplex<f32>>)
  return
}
