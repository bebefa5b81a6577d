// RUN: hivm-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @fold
// CHECK-NEXT:    %[[C:.*]] = arith.constant 42 : i32
// CHECK-NEXT:    return %[[C]], %arg0 : i32, i32
func.func @fold(%x: i32) -> (i32, i32) {
  %a = arith.constant 40 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %z = arith.constant 0 : i32
  %y = arith.addi %x, %z : i32
  %unused = arith.muli %x, %x : i32
  return %c, %y : i32, i32
}

// Wrap-around follows the result width.
// CHECK-LABEL: func.func @wrap
// CHECK-NEXT:    %[[C:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    return %[[C]] : i8
func.func @wrap() -> i8 {
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %c = arith.addi %a, %b : i8
  return %c : i8
}
