// hivm-compile reports bad input at its location and writes no output file.
// RUN: not hivm-compile %s -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out
// RUN: not hivm-compile %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @f() {
  %0 = arith.addi %x, %x : i32
  return
}
// MISSING: hivm-compile: could not open input file
