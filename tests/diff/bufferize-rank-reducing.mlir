// DIFF-ARGS: -one-shot-bufferize -split-input-file
// Rank-reducing slices become rank-reducing subviews (a row, a column, an
// insert of a row, unit dims dropped from a strided slice).
func.func @row(%m: memref<4x8xf32>, %i: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<4x8xf32> to tensor<4x8xf32>
  %s = tensor.extract_slice %t[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
  %c = arith.constant 3 : index
  %x = tensor.extract %s[%c] : tensor<8xf32>
  return %x : f32
}
// -----
func.func @col(%m: memref<4x8xf32>, %j: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<4x8xf32> to tensor<4x8xf32>
  %s = tensor.extract_slice %t[0, %j] [4, 1] [1, 1] : tensor<4x8xf32> to tensor<4xf32>
  %c = arith.constant 3 : index
  %x = tensor.extract %s[%c] : tensor<4xf32>
  return %x : f32
}
// -----
func.func @ins(%m: memref<4x8xf32>, %f: f32) {
  %t = bufferization.to_tensor %m restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = tensor.insert_slice %g into %t[2, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
  bufferization.materialize_in_destination %r in writable %m : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  return
}
// -----
func.func @unit(%m: memref<1x1x8xf32>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<1x1x8xf32> to tensor<1x1x8xf32>
  %s = tensor.extract_slice %t[0, 0, 2] [1, 1, 3] [1, 1, 2] : tensor<1x1x8xf32> to tensor<1x3xf32>
  %c = arith.constant 1 : index
  %z = arith.constant 0 : index
  %x = tensor.extract %s[%z, %c] : tensor<1x3xf32>
  return %x : f32
}
