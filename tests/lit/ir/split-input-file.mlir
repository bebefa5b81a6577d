// RUN: not hivm-opt -split-input-file %s 2>/dev/null | FileCheck %s
// RUN: not hivm-opt -split-input-file %s --allow-unregistered-dialect 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @second
func.func @first() {
  return
}
// -----
func.func @second() {
  return
}
// -----
// Errors in later chunks report lines of the whole file.
// ERR: split-input-file.mlir:[[@LINE+2]]:23: error: use of undeclared SSA value name
func.func @third(%a: i32) {
  %1 = arith.addi %a, %b : i32
  return
}
