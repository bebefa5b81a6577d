// A list missing its `)` is reported where mlir-opt reports it: just past
// the last thing written, not at whatever comes next (a later line, a
// comment, the end of the input). Function types, function result and
// argument lists ask for `)` on its own ("expected ')'"), as MLIR's
// parseTypeListParens and function signature parsers do.
// RUN: not hivm-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:31: error: expected ')'
func.func private @f() -> (i32

func.func private @g()

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:48: error: expected ')'
func.func private @f() -> (i32 {a = 1}, i64 {b} // a comment
// another

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:31: error: expected ')'
func.func private @f() -> (i32 loc("x"))

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:25: error: expected ')'
func.func private @f(i32

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+2]]:36: error: expected ')'
func.func @f() {
  %0:2 = "t.op"() : () -> (i32, i32
  return
}

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:16: error: expected ')'
"t.op"() : (i32 -> i32

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:17: error: expected '->' in function type
"t.op"() : (i32)

"t.op"() : () -> ()

// -----

// CHECK: unclosed-lists.mlir:[[@LINE+1]]:17: error: expected non-function type
"t.op"() : (i32,
) -> i32
