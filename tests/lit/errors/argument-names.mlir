// A function argument cannot name a result number (a block argument can:
// tests/diff/block-arg-result-numbers.mlir).
// RUN: hivm-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{result number not allowed in argument list}}
func.func @numbered(%a#1: i32) {
  return
}
