// vector.mask around a maskable op (shown inline, its yield implied), with and
// without a passthru value, as mlir-opt prints it.
func.func @m(%t: memref<16xf32>, %i: index, %f: f32, %mk: vector<8xi1>, %p: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %0 = vector.mask %mk { vector.transfer_read %t[%i], %f : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  %1 = vector.mask %mk, %p { vector.transfer_read %t[%i], %f : memref<16xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  vector.mask %mk { vector.transfer_write %0, %t[%i] : vector<8xf32>, memref<16xf32> } : vector<8xi1>
  return %0, %1 : vector<8xf32>, vector<8xf32>
}

// A mask whose body is only its yield prints the yield (its values must
// survive), as does an empty body.
func.func @yield_only(%m0: vector<16xi1>, %v: vector<16xf32>) -> vector<16xf32> {
  %0 = vector.mask %m0 { vector.yield %v : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  vector.mask %m0 { vector.yield } : vector<16xi1>
  vector.mask %m0 { } : vector<16xi1>
  return %0 : vector<16xf32>
}
