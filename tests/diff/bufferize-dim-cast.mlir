// DIFF-ARGS: -one-shot-bufferize -split-input-file
// tensor.dim and tensor.cast on buffers: memref.dim, and memref.cast keeping
// the layout (casts are the same buffer: writes through them stay in place).
func.func @dim_cast(%m: memref<8x?xf32>, %i: index) -> (index, f32) {
  %t = bufferization.to_tensor %m restrict : memref<8x?xf32> to tensor<8x?xf32>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %t, %c1 : tensor<8x?xf32>
  %c = tensor.cast %t : tensor<8x?xf32> to tensor<?x?xf32>
  %x = tensor.extract %c[%i, %i] : tensor<?x?xf32>
  return %d, %x : index, f32
}
// -----
func.func @cast_static(%m: memref<?xf32, strided<[?], offset: ?>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<?xf32, strided<[?], offset: ?>> to tensor<?xf32>
  %c = tensor.cast %t : tensor<?xf32> to tensor<4xf32>
  %i = arith.constant 1 : index
  %x = tensor.extract %c[%i] : tensor<4xf32>
  return %x : f32
}
// -----
func.func @cast_write(%m: memref<4xf32>, %f: f32) {
  %t = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
  %c = tensor.cast %t : tensor<4xf32> to tensor<?xf32>
  %g = linalg.fill ins(%f : f32) outs(%c : tensor<?xf32>) -> tensor<?xf32>
  %b = tensor.cast %g : tensor<?xf32> to tensor<4xf32>
  bufferization.materialize_in_destination %b in writable %m : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}
// -----
func.func @cast_strided(%m: memref<4xf32, strided<[2], offset: 4>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<4xf32, strided<[2], offset: 4>> to tensor<4xf32>
  %c = tensor.cast %t : tensor<4xf32> to tensor<?xf32>
  %i = arith.constant 1 : index
  %x = tensor.extract %c[%i] : tensor<?xf32>
  return %x : f32
}
