// Forms that must print as mlir-opt prints them: scf.for with non-index
// bounds (two spaces before the type), scf.while without loop state,
// fastmath flags without spaces, cf.cond_br branch weights, signless integer
// literals that wrap (up to i128), and constants of the small float formats
// (rounded to nearest even; overflow gives NaN, infinity or the largest
// value as each format has it; hex when the value is not finite).
func.func @forms(%lb: i32, %ub: i32, %s: i32, %a: i32, %x: f32, %c: i1) -> i32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %a) -> (i32) : i32 {
    %n = arith.addi %acc, %i overflow<nsw, nuw> : i32
    scf.yield %n : i32
  }
  scf.for %j = %lb to %ub step %s : i32 {
  }
  scf.while : () -> () {
    %t = arith.constant true
    scf.condition(%t)
  } do {
    scf.yield
  }
  %y = arith.addf %x, %x fastmath<nnan,ninf> : f32
  %z = arith.addf %x, %x fastmath<reassoc,nnan,ninf,nsz,arcp,contract> : f32
  %w = arith.addf %x, %x fastmath<fast> : f32
  cf.cond_br %c weights([3, 5]), ^bb1(%r : i32), ^bb2 {note = 1 : i32}
^bb1(%v: i32):
  return %v : i32
^bb2:
  %i0 = arith.constant 340282366920938463463374607431768211455 : i128
  %i1 = arith.constant 170141183460469231731687303715884105728 : i128
  %i2 = arith.constant -170141183460469231731687303715884105728 : i128
  %i3 = arith.constant 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i128
  %i4 = arith.constant 170141183460469231731687303715884105727 : i127
  %i5 = arith.constant 18446744073709551615 : i64
  %i6 = arith.constant 0xFF : i8
  return %a : i32
}

func.func @small_floats() {
  %a = arith.constant 1000.0 : f8E4M3FN
  %b = arith.constant 10.0 : f4E2M1FN
  %c = arith.constant 0.3 : f8E5M2
  %d = arith.constant -0.0 : f8E4M3FNUZ
  %e = arith.constant 1.0e-9 : f8E4M3FN
  %f = arith.constant 0.1 : f8E4M3FN
  %g = arith.constant 100000.0 : f8E5M2
  %h = arith.constant 3.0 : f6E2M3FN
  %i = arith.constant 0.0625 : f6E3M2FN
  %j = arith.constant 4.0 : f8E8M0FNU
  %k = arith.constant 1.5 : tf32
  %l = arith.constant 0.3 : f8E4M3B11FNUZ
  %m = arith.constant 240.0 : f8E4M3
  %n = arith.constant 15.5 : f8E3M4
  %o = arith.constant 464.0 : f8E4M3FN
  %p = arith.constant 0.3 : f8E5M2FNUZ
  %q = arith.constant 0x7F : f8E4M3FN
  %r = arith.constant -2.5 : f8E4M3FN
  %s = arith.constant 0.0001 : f8E5M2
  return
}
