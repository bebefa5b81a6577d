// Offset/size/stride lists are checked as upstream checks them (plain
// errors, no op prefix). mlir-opt accepts this file with the same flags.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @offsets_vs_sizes(%t: tensor<16x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (0 vs 2) so the rank of the result type is well-formed.}}
  %s = tensor.extract_slice %t[] [4, 8] [] : tensor<16x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

func.func @sizes_vs_strides(%t: tensor<16x8xf32>, %u: tensor<4x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1) so the rank of the result type is well-formed.}}
  %s = tensor.insert_slice %u into %t[0, 0] [4, 8] [1] : tensor<4x8xf32> into tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

func.func @source_rank(%t: memref<16x8xf32>) {
  // expected-error @+1 {{expected 2 offset values, got 1}}
  %s = memref.subview %t[0] [4] [1] : memref<16x8xf32> to memref<4xf32, strided<[8]>>
  return
}

// -----

func.func @dynamic_count(%t: tensor<16x8xf32>, %i: index) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (1 vs 0)}}
  %s = "tensor.extract_slice"(%t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, 8>, static_strides = array<i64: 1, 1>}> : (tensor<16x8xf32>, index) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

func.func @reinterpret(%m: memref<?xf32>) {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (1 vs 2) so the rank of the result type is well-formed.}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1, 1] : memref<?xf32> to memref<4xf32>
  return
}

// -----

func.func @negative_size(%t: tensor<16xf32>, %u: tensor<4xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{expected sizes to be non-negative, but got -4}}
  %s = tensor.insert_slice %u into %t[8] [-4] [1] : tensor<4xf32> into tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

func.func @slice_type(%t: tensor<16x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected type to be 'tensor<1x8xf32>' or a rank-reduced version. (size mismatch) }}
  %s = tensor.extract_slice %t[0, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

func.func @subview_layout(%t: memref<16xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<4xf32, strided<[1], offset: 8>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4xf32>'}}
  %s = memref.subview %t[8] [4] [1] : memref<16xf32> to memref<4xf32>
  return
}

// -----

// Rank-reducing forms are accepted.
func.func @rank_reduced(%t: memref<16x4xf32>, %u: tensor<16x8xf32>) -> tensor<8xf32> {
  %s = memref.subview %t[8, 0] [1, 4] [1, 1] : memref<16x4xf32> to memref<4xf32, strided<[1], offset: 32>>
  %v = tensor.extract_slice %u[0, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<8xf32>
  return %v : tensor<8xf32>
}

// -----

func.func @out_of_bounds(%t: tensor<1x1x8xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{slice along dimension 2 runs out-of-bounds: 8 >= 8}}
  %s = tensor.extract_slice %t[0, 0, 2] [1, 1, 4] [1, 1, 2] : tensor<1x1x8xf32> to tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}

// -----

func.func @insert_out_of_bounds(%t: tensor<8xf32>, %u: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{slice along dimension 0 runs out-of-bounds: 9 >= 8}}
  %s = tensor.insert_slice %u into %t[6] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

func.func @subview_out_of_bounds(%m: memref<8x8xf32>) {
  // expected-error @+1 {{slice along dimension 1 runs out-of-bounds: 9 >= 8}}
  %s = memref.subview %m[0, 3] [2, 4] [1, 2] : memref<8x8xf32> to memref<2x4xf32, strided<[8, 2], offset: 3>>
  return
}
