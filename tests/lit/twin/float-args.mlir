// A float argument is rounded to its parameter's type, but a finite number
// past the type's range is refused rather than turned into infinity; an
// infinity given as such stays one.
// RUN: hivm-run %s --entry half --arg zeros:1xf16 --arg 65519 --print 0 | FileCheck %s --check-prefix=ROUNDS
// RUN: not hivm-run %s --entry half --arg zeros:1xf16 --arg 65520 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not hivm-run %s --entry single --arg zeros:1xf32 --arg -1e300 2>&1 | FileCheck %s --check-prefix=SINGLE
// RUN: hivm-run %s --entry single --arg zeros:1xf32 --arg -inf --print 0 | FileCheck %s --check-prefix=INF
// ROUNDS: [65504]
// HALF: float-args.mlir:[[@LINE+3]]:1: error: argument 1 (f16): 65520 is out of the range of f16
// SINGLE: float-args.mlir:[[@LINE+7]]:1: error: argument 1 (f32): -1e300 is out of the range of f32
// INF: [-inf]
func.func @half(%m: memref<1xf16>, %x: f16) {
  %c0 = arith.constant 0 : index
  memref.store %x, %m[%c0] : memref<1xf16>
  return
}
func.func @single(%m: memref<1xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  memref.store %x, %m[%c0] : memref<1xf32>
  return
}
