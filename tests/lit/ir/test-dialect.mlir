// The `test` dialect bishengir-opt registers accepts any op in generic form,
// without -allow-unregistered-dialect.
// RUN: hivm-opt %s | FileCheck %s

// CHECK-LABEL: func.func @stages
// CHECK: "test.stage1"(%arg0) : (i32) -> ()
// CHECK: %0 = "test.produce"() {note = "x"} : () -> tensor<4xf32>
func.func @stages(%i: i32) -> tensor<4xf32> {
  "test.stage1"(%i) : (i32) -> ()
  %t = "test.produce"() {note = "x"} : () -> tensor<4xf32>
  return %t : tensor<4xf32>
}
