// Atomic read-modify-writes of memref elements: the fixed operations
// (float and integer kinds, written bare or quoted) and the generic form
// with a side-effect-free body ending in memref.atomic_yield.
func.func @rmw(%f: memref<16xf32>, %g: memref<4x4xi64>, %i: index, %j: index, %x: f32, %y: i64) -> (f32, i64) {
  %0 = memref.atomic_rmw maxnumf %x, %f[%i] : (f32, memref<16xf32>) -> f32
  %1 = memref.atomic_rmw "ori" %y, %g[%i, %j] {tag} : (i64, memref<4x4xi64>) -> i64
  %2 = memref.atomic_rmw assign %x, %f[%j] : (f32, memref<16xf32>) -> f32
  %3 = memref.atomic_rmw minu %y, %g[%j, %i] : (i64, memref<4x4xi64>) -> i64
  %4 = memref.generic_atomic_rmw %f[%i] : memref<16xf32> {
  ^bb0(%old: f32):
    %m = arith.maximumf %old, %x : f32
    %s = arith.mulf %m, %m : f32
    memref.atomic_yield %s : f32
  }
  %5 = memref.generic_atomic_rmw %g[%i, %j] : memref<4x4xi64> {
  ^bb0(%old: i64):
    memref.atomic_yield %old : i64
  } {tag = "keep"}
  return %4, %5 : f32, i64
}

func.func @scalar_memref(%s: memref<i32>, %v: i32) -> i32 {
  %0 = memref.atomic_rmw addi %v, %s[] : (i32, memref<i32>) -> i32
  %1 = memref.generic_atomic_rmw %s[] : memref<i32> {
  ^bb0(%old: i32):
    %n = arith.addi %old, %0 : i32
    memref.atomic_yield %n : i32
  }
  return %1 : i32
}
