// An attribute the syntax already gives, written again in the attribute
// dictionary, is an error (keeping either value would change the op), in
// mlir-opt's words and place.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: [[@LINE+1]]:1: error: custom op 'llvm.mlir.global' attribute 'value' occurs more than once in the attribute list
llvm.mlir.global internal @g(1 : i32) {value = 5 : i32} : i32

// -----

// CHECK: [[@LINE+1]]:1: error: custom op 'llvm.func' attribute 'sym_name' occurs more than once in the attribute list
llvm.func @f() attributes {sym_name = "g"} {
  llvm.return
}

// -----

func.func @f(%n: index) {
  // CHECK: [[@LINE+1]]:3: error: custom op 'affine.for' attribute 'step' occurs more than once in the attribute list
  affine.for %i = 0 to 10 {
  } {step = 7 : index}
  return
}

// -----

func.func @f(%a: i32) -> i1 {
  // CHECK: [[@LINE+1]]:8: error: custom op 'llvm.icmp' attribute 'predicate' occurs more than once in the attribute list
  %0 = llvm.icmp "eq" %a, %a {predicate = 3 : i64} : i32
  return %0 : i1
}
