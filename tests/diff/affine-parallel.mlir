// affine.parallel bands (grouped max/min bounds, repeated and symbolic
// operands, steps, reductions, an empty band) and index (de)linearization.
func.func @bands(%buf: memref<64x32xf32>, %n: index, %lo: index, %hi: index, %acc: memref<i64>) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (max(%lo, %lo floordiv 2 + 1), 0) to (min(%hi, symbol(%n), 64), %lo + 16) step (4, 2)
      reduce ("maximumf", "mulf") -> (f32, f32) {
    %v = affine.load %buf[%i, %j + 1] : memref<64x32xf32>
    affine.yield %v, %v : f32, f32
  }
  affine.parallel (%k) = (%lo) to (%lo + %lo * 3 - %hi) {
    affine.parallel (%a, %b, %c) = (%k, %k mod 4, 0) to (min(%k + 3, 2), symbol(%n) ceildiv 2, 7) step (1, 1, 3) {
      affine.yield
    } {tag = 2 : i32}
  }
  affine.parallel () = () to () {
  }
  %t = affine.parallel (%k) = (0) to (8) reduce ("addi") -> (i64) {
    %c = arith.constant 3 : i64
    affine.yield %c : i64
  }
  return %r#0, %r#1 : f32, f32
}

func.func @indices(%flat: index, %n: index, %m: index, %i: index, %j: index) -> index {
  %0:3 = affine.delinearize_index %flat into (%n, 16, %m) : index, index, index
  %1:3 = affine.delinearize_index %flat into (8, %m) : index, index, index
  %2 = affine.delinearize_index %flat into () {tag} : index
  %3 = affine.linearize_index [%0#0, %0#1, %0#2] by (%n, 16, %m) : index
  %4 = affine.linearize_index disjoint [%i, %j] by (%m) : index
  %5 = affine.linearize_index disjoint [%1#1, %1#2] by (4, 8) {tag} : index
  %6 = "affine.linearize_index"(%i, %j, %n) <{disjoint, operandSegmentSizes = array<i32: 2, 1>, static_basis = array<i64: 3, -9223372036854775808>}> : (index, index, index) -> index
  return %3 : index
}
