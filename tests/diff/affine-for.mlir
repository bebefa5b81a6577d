// affine.for: constant, single-symbol and map bounds (max/min), steps, iter_args, attributes.
#lb = affine_map<(d0)[s0] -> (d0, s0 - 1)>
#ub = affine_map<(d0) -> (d0 + 8, 128)>
func.func @loops(%n: index, %m: memref<128xf32>, %f: f32) -> f32 {
  affine.for %i = 0 to 10 {
    affine.for %j = %n to 100 step 4 {
      %v = affine.load %m[%i + %j] : memref<128xf32>
      affine.store %v, %m[%j] : memref<128xf32>
    }
  }
  affine.for %i = -4 to affine_map<()[s0] -> (s0 * 2)>()[%n] {
    affine.for %k = max #lb(%i)[%n] to min #ub(%i) {
    }
  }
  %r = affine.for %i = 0 to 16 iter_args(%acc = %f) -> (f32) {
    %x = affine.load %m[%i] : memref<128xf32>
    %s = arith.addf %acc, %x : f32
    affine.yield %s : f32
  }
  affine.for %i = affine_map<(d0) -> (d0)>(%n) to 5 {
  } {tag = "x"}
  return %r : f32
}
