// MLIR's vector dialect ops that HIVM kernels use, as mlir-opt prints them:
// transfer_read/write (implied minor-identity maps and in_bounds elided, masks
// typed from the vector), masks, shape_cast, broadcast and the reductions.
func.func @v(%t: tensor<64xbf16>, %m: memref<4x8xf32>, %i: index, %j: index, %pad: bf16, %f: f32, %v8: vector<8xf32>, %v2: vector<4x8xf32>) -> (vector<64xbf16>, tensor<64xbf16>) {
  %0 = vector.transfer_read %t[%i], %pad {in_bounds = [true]} : tensor<64xbf16>, vector<64xbf16>
  %1 = vector.transfer_write %0, %t[%i] {in_bounds = [true]} : vector<64xbf16>, tensor<64xbf16>
  %2 = vector.transfer_read %m[%i, %j], %f : memref<4x8xf32>, vector<8xf32>
  %mk = vector.create_mask %i : vector<8xi1>
  %3 = vector.transfer_read %m[%i, %j], %f, %mk {in_bounds = [false]} : memref<4x8xf32>, vector<8xf32>
  vector.transfer_write %v8, %m[%i, %j], %mk : vector<8xf32>, memref<4x8xf32>
  %4 = vector.transfer_read %m[%i, %j], %f {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<4x8xf32>, vector<4xf32>
  %cm = vector.constant_mask [3, 2] : vector<4x8xi1>
  %sc = vector.shape_cast %v2 : vector<4x8xf32> to vector<32xf32>
  %b = vector.broadcast %f : f32 to vector<8xf32>
  %r = vector.multi_reduction <add>, %v2, %v8 [0] : vector<4x8xf32> to vector<8xf32>
  %s = vector.reduction <maxnumf>, %v8 : vector<8xf32> into f32
  %s2 = vector.reduction <add>, %v8, %f fastmath<fast> : vector<8xf32> into f32
  %s3 = vector.reduction <mul>, %v8 fastmath<nnan,ninf> : vector<8xf32> into f32
  return %0, %1 : vector<64xbf16>, tensor<64xbf16>
}

// Masks of broadcast and transposed maps take the source dims' order.
func.func @masks(%m: memref<4x8xf32>, %i: index, %f: f32, %mk: vector<8xi1>, %mt: vector<8x4xi1>) -> (vector<4x8xf32>, vector<4x8xf32>) {
  %0 = vector.transfer_read %m[%i, %i], %f, %mk {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x8xf32>, vector<4x8xf32>
  %1 = vector.transfer_read %m[%i, %i], %f, %mt {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x8xf32>, vector<4x8xf32>
  return %0, %1 : vector<4x8xf32>, vector<4x8xf32>
}
