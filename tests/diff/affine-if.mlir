// affine.if with and without else, with results, inside affine.for.
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0)>
func.func @f(%n: index, %m: memref<16xf32>, %x: f32) -> f32 {
  affine.for %i = 0 to 16 {
    affine.if #set(%i)[%n] {
      affine.store %x, %m[%i] : memref<16xf32>
    }
    affine.if affine_set<(d0) : (d0 == 0)>(%i) {
      affine.store %x, %m[%i] : memref<16xf32>
    } else {
      affine.store %x, %m[0] : memref<16xf32>
    }
  }
  %r = affine.if #set(%n)[%n] -> f32 {
    affine.yield %x : f32
  } else {
    affine.yield %x : f32
  }
  return %r : f32
}

// No constraint is the always-true set (`0 == 0`).
func.func @always(%m: memref<16xf32>, %x: f32) {
  affine.if affine_set<() : ()>() {
    affine.store %x, %m[0] : memref<16xf32>
  }
  return
}
