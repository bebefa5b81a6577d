#map = affine_map<(d0)[s0] -> (d0 + s0)>
func.func @m(%a: memref<4x8xf32>, %d: memref<?x?xf32>, %i: index, %t: tensor<4x8xf32>, %v: f32, %u: memref<*xf32>) {
  %c0 = arith.constant 0 : index
  %0 = memref.alloc() : memref<4xf32>
  %1 = memref.alloc(%i) {alignment = 64 : i64} : memref<?xf32, 3>
  %2 = memref.alloca() : memref<2xi32>
  memref.dealloc %0 : memref<4xf32>
  %3 = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  memref.copy %a, %a : memref<4x8xf32> to memref<4x8xf32>
  %4 = memref.reinterpret_cast %d to offset: [0], sizes: [%i, 8], strides: [8, 1] : memref<?x?xf32> to memref<?x8xf32, strided<[8, 1]>>
  %5 = memref.subview %a[0, %i] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  %6 = memref.load %a[%c0, %i] : memref<4x8xf32>
  memref.store %v, %a[%c0, %c0] : memref<4x8xf32>
  %7 = memref.dim %d, %c0 : memref<?x?xf32>
  %8 = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %9 = memref.expand_shape %8 [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  %10 = memref.alloc() : memref<64xi8>
  %11 = memref.view %10[%c0][] : memref<64xi8> to memref<16xf32>
  %12 = memref.memory_space_cast %1 : memref<?xf32, 3> to memref<?xf32>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<4x8xf32> -> memref<f32>, index, index, index, index, index
  %13 = tensor.empty(%i) : tensor<?x8xf32>
  %14 = tensor.extract %t[%c0, %c0] : tensor<4x8xf32>
  %15 = tensor.insert %v into %t[%c0, %c0] : tensor<4x8xf32>
  %16 = tensor.extract_slice %t[0, %i] [2, 4] [1, 1] : tensor<4x8xf32> to tensor<2x4xf32>
  %17 = tensor.insert_slice %16 into %t[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x8xf32>
  %18 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %19 = tensor.expand_shape %18 [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %20 = tensor.dim %13, %c0 : tensor<?x8xf32>
  %21 = bufferization.to_tensor %a restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %22 = bufferization.to_buffer %t : tensor<4x8xf32> to memref<4x8xf32>
  bufferization.materialize_in_destination %t in writable %a : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  %23 = bufferization.alloc_tensor(%i) : tensor<?xf32>
  %24 = linalg.fill ins(%v : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  linalg.fill ins(%v : f32) outs(%a : memref<4x8xf32>)
  %25 = affine.apply #map(%i)[%c0]
  %26 = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
  %27 = tensor.cast %t : tensor<4x8xf32> to tensor<?x?xf32>
  return
}
