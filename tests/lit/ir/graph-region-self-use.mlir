// An unregistered op's region may be a graph region, where an op can use
// its own result and values defined further down (mlir-opt 22 accepts and
// prints this file alike).
// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s
// RUN: hivm-opt -allow-unregistered-dialect %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

"test.graph"() ({
  %a = "test.node"(%a, %b) : (i64, i64) -> i64
  %b = "test.edge"(%a) : (i64) -> i64
  %c:2 = "test.pair"(%c#1, %c#0) : (i32, f32) -> (f32, i32)
  "test.end"() : () -> ()
}) : () -> ()

// CHECK:      "test.graph"() ({
// CHECK-NEXT:   %0 = "test.node"(%0, %1) : (i64, i64) -> i64
// CHECK-NEXT:   %1 = "test.edge"(%0) : (i64) -> i64
// CHECK-NEXT:   %2:2 = "test.pair"(%2#1, %2#0) : (i32, f32) -> (f32, i32)
// CHECK-NEXT:   "test.end"() : () -> ()
// CHECK-NEXT: }) : () -> ()

// GENERIC:      %0 = "test.node"(%0, %1) : (i64, i64) -> i64
// GENERIC-NEXT: %1 = "test.edge"(%0) : (i64) -> i64
// GENERIC-NEXT: %2:2 = "test.pair"(%2#1, %2#0) : (i32, f32) -> (f32, i32)
