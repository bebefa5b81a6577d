// More vector ops (load/store, transpose, gather, bitcast, fma, extract/insert
// with mixed static and dynamic positions) and arith's extended arithmetic
// (results named after their definitions), as mlir-opt prints them.
func.func @v(%m: memref<8x16xf32>, %i: index, %v: vector<4x8xf32>, %w: vector<8xf32>, %idx: vector<8xi32>, %mk: vector<8xi1>, %a: i32, %b: i32) -> (vector<8xf32>, f32, vector<4x8xf32>) {
  %0 = vector.load %m[%i, %i] : memref<8x16xf32>, vector<8xf32>
  vector.store %0, %m[%i, %i] {nontemporal = true} : memref<8x16xf32>, vector<8xf32>
  %1 = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %2 = vector.gather %m[%i, %i] [%idx], %mk, %w : memref<8x16xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %3 = vector.bitcast %w : vector<8xf32> to vector<16xf16>
  %4 = vector.fma %w, %w, %w : vector<8xf32>
  %5 = vector.extract %v[1, %i] : f32 from vector<4x8xf32>
  %6 = vector.insert %5, %v [0, 3] : f32 into vector<4x8xf32>
  %7 = vector.extract %v[2] : vector<8xf32> from vector<4x8xf32>
  %s, %o = arith.addui_extended %a, %b : i32, i1
  %l, %h = arith.mulsi_extended %a, %b : i32
  %l2, %h2 = arith.mului_extended %a, %b : i32
  %8 = vector.load %m[%i, %i] {alignment = 16 : i64} : memref<8x16xf32>, vector<8xf32>
  return %4, %5, %6 : vector<8xf32>, f32, vector<4x8xf32>
}
