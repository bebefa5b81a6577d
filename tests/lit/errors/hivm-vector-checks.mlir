// Upstream's structural checks on HIVM vector ops, in its words: operands
// that must be vectors, one element type across operands, and the dimension
// lists of broadcasts and reductions.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @xor_scalar(%a: memref<8xi32>, %s: i32, %d: memref<8xi32>) {
  // expected-error@+1 {{'hivm.hir.vxor' op failed to verify that operand at index 1 is vector-only}}
  hivm.hir.vxor ins(%a, %s : memref<8xi32>, i32) outs(%d : memref<8xi32>)
  return
}

// -----

func.func @sub_scalar_is_fine(%a: memref<8xi32>, %s: i32, %d: memref<8xi32>) {
  hivm.hir.vsub ins(%a, %s : memref<8xi32>, i32) outs(%d : memref<8xi32>)
  return
}

// -----

func.func @mul_mixed(%a: memref<8xf16>, %b: memref<8xf16>, %d: memref<8xf32>) {
  // expected-error@+1 {{'hivm.hir.vmul' op requires the same element type for all operands}}
  hivm.hir.vmul ins(%a, %b : memref<8xf16>, memref<8xf16>) outs(%d : memref<8xf32>)
  return
}

// -----

func.func @brc_no_dims(%s: memref<1x8xf32>, %d: memref<4x8xf32>) {
  // expected-error@+1 {{'hivm.hir.vbrc' op have empty broadcast dims array}}
  hivm.hir.vbrc ins(%s : memref<1x8xf32>) outs(%d : memref<4x8xf32>)
  return
}

// -----

func.func @brc_not_unit(%s: memref<2x8xf32>, %d: memref<4x8xf32>) {
  // expected-error@+1 {{'hivm.hir.vbrc' op invalid source vector shape, 'SrcVecDim[0]' != 1}}
  hivm.hir.vbrc ins(%s : memref<2x8xf32>) outs(%d : memref<4x8xf32>) broadcast_dims = [0]
  return
}

// -----

func.func @brc_scalar_dims(%s: f32, %d: memref<4xf32>) {
  // expected-error@+1 {{'hivm.hir.vbrc' op broadcast dims must be empty for scalar src}}
  hivm.hir.vbrc ins(%s : f32) outs(%d : memref<4xf32>) broadcast_dims = [0]
  return
}

// -----

func.func @brc_temp_rank(%s: memref<1x8xf32>, %d: memref<4x8xf32>, %t: memref<2x2xf32>) {
  // expected-error@+1 {{'hivm.hir.vbrc' op temp_buffer'rank should be one}}
  hivm.hir.vbrc ins(%s : memref<1x8xf32>) outs(%d : memref<4x8xf32>) temp_buffer(%t : memref<2x2xf32>) broadcast_dims = [0]
  return
}

// -----

func.func @reduce_bad_index(%s: memref<4x8xf32>, %d: memref<4x1xf32>) {
  // expected-error@+1 {{'hivm.hir.vreduce' op have invalid index '2' inside reduce dims array}}
  hivm.hir.vreduce <sum> ins(%s : memref<4x8xf32>) outs(%d : memref<4x1xf32>) reduce_dims = [2]
  return
}

// -----

func.func @reduce_dst_not_unit(%s: memref<4x8xf32>, %d: memref<4x8xf32>) {
  // expected-error@+1 {{'hivm.hir.vreduce' op invalid dst vector shape, 'DstVecDim[1]' != 1}}
  hivm.hir.vreduce <sum> ins(%s : memref<4x8xf32>) outs(%d : memref<4x8xf32>) reduce_dims = [1]
  return
}

// -----

func.func @reduce_other_dim(%s: memref<4x8xf32>, %d: memref<2x1xf32>) {
  // expected-error@+1 {{'hivm.hir.vreduce' op have dim at index 0 different between src and dst}}
  hivm.hir.vreduce <sum> ins(%s : memref<4x8xf32>) outs(%d : memref<2x1xf32>) reduce_dims = [1]
  return
}
