// An "expected ..." error about the token that came is placed where
// mlir-opt places it: just past the last thing written, backing up over
// blanks and line breaks, not at the unexpected token on a later line.
// RUN: not hivm-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:32: error: expected operation name in quotes
func.func private @f() -> (i32)
 -> i32

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:32: error: expected operation name in quotes
func.func private @f() -> (i32) -> i32

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:17: error: expected attribute value
"test.op"() {a =
 ]} : () -> ()

// -----

func.func @f() {
// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:8: error: expected block name
  cf.br
 ]
}

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:4: error: expected integer number of results
%0:
 ] = "test.op"() : () -> (i32)

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:26: error: expected 'x' in dimension list
func.func @f(%a: memref<4 f32>)

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:25: error: expected non-function type
func.func @f(%a: vector<
 ]>)

// -----

// CHECK: wrong-token-locations.mlir:[[@LINE+1]]:19: error: @ identifier expected to start with letter or '_'
"test.op"() {a = @ } : () -> ()
