// Masked, strided-slice and scatter vector ops, math.sincos/clampf,
// bufferization.clone/dealloc_tensor and memref realloc, dma_wait,
// memory_space_cast and extract_aligned_pointer_as_index, as mlir-opt prints them.
func.func @v(%m: memref<8x16xf32>, %i: index, %v: vector<4x8xf32>, %w: vector<8xf32>, %s: vector<2x4xf32>, %mk: vector<8xi1>, %idx: vector<8xi32>, %f: f32, %t: tensor<4xf32>) -> (vector<4x8xf32>, vector<2x4xf32>, vector<8xf32>, f32, f32, f32) {
  %0 = vector.insert_strided_slice %s, %v {offsets = [0, 2], strides = [1, 1]} : vector<2x4xf32> into vector<4x8xf32>
  %1 = vector.extract_strided_slice %v {offsets = [0, 2], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>
  %2 = vector.maskedload %m[%i, %i], %mk, %w : memref<8x16xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  vector.maskedstore %m[%i, %i], %mk, %2 : memref<8x16xf32>, vector<8xi1>, vector<8xf32>
  vector.scatter %m[%i, %i] [%idx], %mk, %w : memref<8x16xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32>
  %3 = vector.expandload %m[%i, %i], %mk, %w : memref<8x16xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  vector.compressstore %m[%i, %i], %mk, %3 : memref<8x16xf32>, vector<8xi1>, vector<8xf32>
  %sin, %cos = math.sincos %f : f32
  %c = math.clampf %f to [%sin, %cos] fastmath<fast> : f32
  %cl = bufferization.clone %m : memref<8x16xf32> to memref<8x16xf32>
  bufferization.dealloc_tensor %t : tensor<4xf32>
  return %0, %1, %3, %sin, %cos, %c : vector<4x8xf32>, vector<2x4xf32>, vector<8xf32>, f32, f32, f32
}

func.func @m(%a: memref<2xf32>, %n: index, %t: memref<1xi32>, %g: memref<4xf32, 1>) -> (memref<?xf32>, memref<4xf32>, index) {
  %0 = memref.realloc %a(%n) : memref<2xf32> to memref<?xf32>
  %1 = memref.realloc %a {alignment = 16 : i64} : memref<2xf32> to memref<4xf32>
  memref.dma_wait %t[%n], %n : memref<1xi32>
  %2 = memref.memory_space_cast %g : memref<4xf32, 1> to memref<4xf32>
  %3 = memref.extract_aligned_pointer_as_index %a : memref<2xf32> -> index
  return %0, %2, %3 : memref<?xf32>, memref<4xf32>, index
}
