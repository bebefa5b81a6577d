// scf.parallel (implied empty scf.reduce terminator, printed with the format's
// trailing space; reductions with combining regions), as mlir-opt prints it.
func.func @p(%n: index, %m: memref<4x4xf32>, %f: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %f, %m[%i, %j] : memref<4x4xf32>
  }
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%f) -> f32 {
    %v = memref.load %m[%i, %i] : memref<4x4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
