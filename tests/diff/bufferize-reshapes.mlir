// DIFF-ARGS: -one-shot-bufferize -split-input-file
// Reshapes of strided buffers: collapsible groups keep the layout's offset and
// innermost stride, non-contiguous groups are copied first, expansions derive
// their strides.
func.func @collapse_contig(%m: memref<2x4xf32, strided<[4, 1], offset: 8>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x4xf32, strided<[4, 1], offset: 8>> to tensor<2x4xf32>
  %s = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i] : tensor<8xf32>
  return %x : f32
}
// -----
func.func @collapse_noncontig(%m: memref<2x4xf32, strided<[8, 1]>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x4xf32, strided<[8, 1]>> to tensor<2x4xf32>
  %s = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i] : tensor<8xf32>
  return %x : f32
}
// -----
func.func @expand_strided(%m: memref<8xf32, strided<[2], offset: ?>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<8xf32, strided<[2], offset: ?>> to tensor<8xf32>
  %s = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %i = arith.constant 1 : index
  %x = tensor.extract %s[%i, %i] : tensor<2x4xf32>
  return %x : f32
}
// -----
func.func @collapse_slice(%m: memref<4x8xf32>, %k: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<4x8xf32> to tensor<4x8xf32>
  %v = tensor.extract_slice %t[%k, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %s = tensor.collapse_shape %v [[0, 1]] : tensor<2x8xf32> into tensor<16xf32>
  %i = arith.constant 3 : index
  %x = tensor.extract %s[%i] : tensor<16xf32>
  return %x : f32
}
// -----
func.func @unit_outer(%m: memref<1x4xf32, strided<[16, 2], offset: 3>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<1x4xf32, strided<[16, 2], offset: 3>> to tensor<1x4xf32>
  %s = tensor.collapse_shape %t [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i] : tensor<4xf32>
  return %x : f32
}
// -----
func.func @three_d(%m: memref<2x3x4xf32, strided<[24, 4, 1], offset: ?>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x3x4xf32, strided<[24, 4, 1], offset: ?>> to tensor<2x3x4xf32>
  %s = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i, %i] : tensor<2x12xf32>
  return %x : f32
}
// -----
func.func @dyn_stride(%m: memref<2x4xf32, strided<[?, 1], offset: ?>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x4xf32, strided<[?, 1], offset: ?>> to tensor<2x4xf32>
  %s = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i] : tensor<8xf32>
  return %x : f32
}
// -----
func.func @expand_dyn(%m: memref<?xf32, strided<[1], offset: ?>>, %n: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<?xf32, strided<[1], offset: ?>> to tensor<?xf32>
  %s = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i, %i] : tensor<?x4xf32>
  return %x : f32
}
// -----
func.func @expand_unit(%m: memref<8xf32, strided<[3]>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<8xf32, strided<[3]>> to tensor<8xf32>
  %s = tensor.expand_shape %t [[0, 1, 2]] output_shape [1, 8, 1] : tensor<8xf32> into tensor<1x8x1xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i, %i, %i] : tensor<1x8x1xf32>
  return %x : f32
}
