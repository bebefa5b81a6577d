// A list missing its closer is reported in mlir-opt's words: the closer,
// and the list's context where mlir-opt names one.
// RUN: not hivm-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s

// CHECK: list-closers.mlir:[[@LINE+1]]:33: error: expected '}' in attribute dictionary
func.func @f() attributes {a = 1 b = 2} {
  return
}

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:20: error: expected ',' or ']'
"test.op"() {a = [1 2]} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:26: error: expected ']'
"test.op"() {a = dense<[1 2]> : tensor<2xi32>} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:28: error: expected ')'
"test.op"() ({ ^bb0(%a: i32 %b: i32): "test.t"() : () -> () }) : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:37: error: expected ']' in fused location
"test.op"() : () -> () loc(fused["a" "b"])

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:32: error: expected ')' in dimensional identifier list
"test.op"() {m = affine_map<(d0 d1) -> (d0)>} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:40: error: expected ')' in affine map range
"test.op"() {m = affine_map<(d0) -> (d0 d0)>} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:44: error: expected ')' in integer set constraint list
"test.op"() {s = affine_set<(d0) : (d0 >= 0 d0 >= 1)>} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:36: error: expected ']' in symbol list
"test.op"() {m = affine_map<(d0)[s0 s1] -> (d0)>} : () -> ()

// -----

// CHECK: list-closers.mlir:[[@LINE+1]]:45: error: expected ']'
"test.op"() : () -> memref<4xf32, strided<[1 2]>>
