// func.constant must name a function of its type, in mlir-opt's words.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @g() {
  // CHECK: [[@LINE+1]]:8: error: 'func.constant' op reference to undefined function 'nope'
  %f = func.constant @nope : () -> ()
  return
}

// -----

func.func @f(%a: i32) -> i32 {
  return %a : i32
}
func.func @h() {
  // CHECK: [[@LINE+1]]:8: error: 'func.constant' op reference to function with mismatched type
  %f = func.constant @f : () -> ()
  return
}
