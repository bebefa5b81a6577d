// An integer argument must fit its parameter, read signed or unsigned: a
// value that would wrap is refused, not truncated.
// RUN: hivm-run %s --entry k --arg zeros:1xi8 --arg 255 --print 0 | FileCheck %s --check-prefix=MAX
// RUN: hivm-run %s --entry k --arg zeros:1xi8 --arg -128 --print 0 | FileCheck %s --check-prefix=MIN
// RUN: not hivm-run %s --entry k --arg zeros:1xi8 --arg 256 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: not hivm-run %s --entry k --arg zeros:1xi8 --arg -129 2>&1 | FileCheck %s --check-prefix=UNDER
// RUN: not hivm-run %s --entry k --arg zeros:1xi8 --arg 99999999999999999999999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not hivm-run %s --entry k --arg zeros:1xi8 --arg 1.5 2>&1 | FileCheck %s --check-prefix=FRACTION
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

// Signed and unsigned parameters take their own ranges only.
// RUN: not hivm-run %s --entry typed --arg -1 --arg 0 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// RUN: not hivm-run %s --entry typed --arg 0 --arg 128 2>&1 | FileCheck %s --check-prefix=SIGNED
// RUN: hivm-run %s --entry typed --arg 255 --arg -128 2>&1 | FileCheck %s --check-prefix=TYPED --allow-empty
// UNSIGNED: error: argument 0 (ui8): -1 does not fit in 8 bits (from 0 to 255)
// SIGNED: error: argument 1 (si8): 128 does not fit in 8 bits (from -128 to 127)
// TYPED-NOT: error
func.func @typed(%u: ui8, %s: si8) {
  return
}
