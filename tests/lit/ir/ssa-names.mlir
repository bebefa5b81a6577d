// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// Custom form: asm-name hints, `_N` de-duplication, per-region renumbering.
// CHECK-LABEL: func.func @names(%arg0: index, %arg1: i32) -> i32 {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c4_i64 = arith.constant 4 : i64
// CHECK-NEXT:    %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 2.500000e+00 : f32
// CHECK-NEXT:    %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (i32) {
// CHECK-NEXT:      %2 = arith.addi %arg3, %arg1 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %0) -> (i32) {
// CHECK-NEXT:      %2 = arith.muli %arg3, %arg1 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %1 : i32

// Generic form numbers uniquely, nested regions last-pushed first.
// GEN: %7 = "scf.for"(%0, %arg0, %1, %arg1) ({
// GEN-NEXT: ^bb0(%arg4: index, %arg5: i32):
// GEN-NEXT:   %10 = "arith.addi"(%arg5, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GEN: %8 = "scf.for"(%0, %arg0, %1, %7) ({
// GEN-NEXT: ^bb0(%arg2: index, %arg3: i32):
// GEN-NEXT:   %9 = "arith.muli"(%arg3, %arg1)
func.func @names(%n: index, %x: i32) -> i32 {
  %a = arith.constant 0 : index
  %b = arith.constant 1 : index
  %c = arith.constant 4 : i64
  %d = arith.constant -1 : i64
  %e = arith.constant true
  %f = arith.constant 1.5 : f32
  %g = arith.constant 2.5 : f32
  %r = scf.for %i = %a to %n step %b iter_args(%acc = %x) -> (i32) {
    %s = arith.addi %acc, %x : i32
    scf.yield %s : i32
  }
  %r2 = scf.for %i = %a to %n step %b iter_args(%acc = %r) -> (i32) {
    %s = arith.muli %acc, %x : i32
    scf.yield %s : i32
  }
  return %r2 : i32
}
