func.func @loops(%n: index, %x: f32, %c: i1, %m: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %v = memref.load %m[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    %t = scf.if %c -> (f32) {
      %u = arith.mulf %s, %s fastmath<fast> : f32
      scf.yield %u : f32
    } else {
      scf.yield %s : f32
    }
    scf.yield %t : f32
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %r, %m[%i] : memref<?xf32>
  }
  scf.if %c {
    memref.store %x, %m[%c0] : memref<?xf32>
  }
  %w = scf.while (%arg = %x) : (f32) -> f32 {
    %cond = arith.cmpf olt, %arg, %r : f32
    scf.condition(%cond) %arg : f32
  } do {
  ^bb0(%arg: f32):
    %next = arith.addf %arg, %x : f32
    scf.yield %next : f32
  }
  cf.cond_br %c, ^bb1(%w : f32), ^bb2
^bb1(%v1: f32):
  return %v1 : f32
^bb2:
  cf.br ^bb1(%r : f32)
}
