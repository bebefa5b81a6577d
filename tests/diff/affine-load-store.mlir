// affine.load / affine.store: subscripts are affine expressions of SSA
// values (dims as themselves, symbols as symbol(%v)); a value named twice
// keeps its first role, and the map is simplified as mlir-opt does.
func.func @access(%m: memref<16x128xf16>, %c: f16, %i: index, %n: index, %s: memref<f32>, %x: f32) -> (f16, f16, f16, f32) {
  affine.store %c, %m[0, 0] : memref<16x128xf16>
  affine.store %c, %m[%i + 1, symbol(%i) * 2] : memref<16x128xf16>
  %0 = affine.load %m[%i floordiv 2, 3] : memref<16x128xf16>
  %1 = affine.load %m[symbol(%n) * %i + symbol(%n), %i mod 4] {tag} : memref<16x128xf16>
  %2 = affine.load %m[symbol(%n), %n] : memref<16x128xf16>
  affine.store %2, %m[(%i - %n) * 4 + -1, %n ceildiv 8 - %i] : memref<16x128xf16>
  %3 = affine.load %s[] : memref<f32>
  affine.store %x, %s[] : memref<f32>
  return %0, %1, %2, %3 : f16, f16, f16, f32
}
