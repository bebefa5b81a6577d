// Rank-reducing memref.subview of strided layouts: which unit dim is dropped is
// decided by the strides (a 1x1 view with strides [4, 1] may keep either).
func.func @s(%m: memref<1x1xf32, strided<[4, 1], offset: ?>>, %n: memref<1x10xf32, strided<[10, 1], offset: ?>>, %k: memref<4x1xf32, strided<[1, 1], offset: ?>>) {
  %0 = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<1x1xf32, strided<[4, 1], offset: ?>> to memref<1xf32, strided<[1], offset: ?>>
  %1 = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<1x1xf32, strided<[4, 1], offset: ?>> to memref<1xf32, strided<[4], offset: ?>>
  %2 = memref.subview %n[0, 0] [1, 10] [1, 1] : memref<1x10xf32, strided<[10, 1], offset: ?>> to memref<10xf32, strided<[1], offset: ?>>
  %3 = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<1x1xf32, strided<[4, 1], offset: ?>> to memref<f32, strided<[], offset: ?>>
  return
}
// A result layout written as an affine map is read as strides and offset.
func.func @affine_layout(%m: memref<1x10xf32, strided<[10, 1], offset: ?>>) {
  %0 = memref.subview %m[0, 0] [1, 10] [1, 1] : memref<1x10xf32, strided<[10, 1], offset: ?>> to memref<10xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}
