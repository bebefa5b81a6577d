// RUN: hivm-opt %s --pass-pipeline="builtin.module(func.func(cse),canonicalize)" --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: hivm-opt %s -cse --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE

// CHECK:      // -----// IR Dump After CSE (cse) //----- //
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }
// CHECK:      // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NEXT: module {
// BEFORE:      // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: module {
// BEFORE:        %1 = arith.addi %arg0, %arg0 : i32
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  return %1 : i32
}
