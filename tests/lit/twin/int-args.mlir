// An integer argument must fit its parameter, read signed or unsigned: a
// value that would wrap is refused, not truncated.
// RUN: hivm-run %s --arg zeros:1xi8 --arg 255 --print 0 | FileCheck %s --check-prefix=MAX
// RUN: hivm-run %s --arg zeros:1xi8 --arg -128 --print 0 | FileCheck %s --check-prefix=MIN
// RUN: not hivm-run %s --arg zeros:1xi8 --arg 256 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: not hivm-run %s --arg zeros:1xi8 --arg -129 2>&1 | FileCheck %s --check-prefix=UNDER
// RUN: not hivm-run %s --arg zeros:1xi8 --arg 99999999999999999999999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not hivm-run %s --arg zeros:1xi8 --arg 1.5 2>&1 | FileCheck %s --check-prefix=FRACTION
// MAX: [-1]
// MIN: [-128]
// OVER: error: argument 1 (i8): 256 does not fit in 8 bits (from -128 to 255)
// UNDER: error: argument 1 (i8): -129 does not fit in 8 bits (from -128 to 255)
// HUGE: error: argument 1 (i8): 99999999999999999999999999 does not fit in 8 bits
// FRACTION: error: argument 1 (i8): '1.5' is not an integer
func.func @k(%m: memref<1xi8>, %x: i8) {
  %c0 = arith.constant 0 : index
  memref.store %x, %m[%c0] : memref<1xi8>
  return
}
