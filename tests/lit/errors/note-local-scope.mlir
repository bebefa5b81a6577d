// The op in a "see current operation" note is numbered from its closest
// isolated-from-above ancestor, as mlir-opt does (local scope): each function
// restarts at %0 and %arg0, however many functions come before it.
// RUN: not hivm-opt %s 2>&1 | FileCheck %s

func.func @first(%x: i32, %y: i32) -> i32 {
  %0 = arith.addi %x, %y : i32
  %1 = arith.muli %0, %y : i32
  return %1 : i32
}

func.func @second(%p: i32, %q: index) -> i32 {
  %c = arith.constant 1 : i32
  // CHECK: [[@LINE+2]]:8: error: 'arith.addi' op requires the same type for all operands and results
  // CHECK: [[@LINE+1]]:8: note: see current operation: %1 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, index) -> i32
  %r = "arith.addi"(%p, %q) : (i32, index) -> i32
  return %r : i32
}

func.func @third(%a: i32, %b: index) -> i32 {
  // A nested op is numbered within its function too.
  %v = scf.execute_region -> i32 {
    // CHECK: [[@LINE+2]]:10: error: 'arith.addi' op requires the same type for all operands and results
    // CHECK: [[@LINE+1]]:10: note: see current operation: %1 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, index) -> i32
    %s = "arith.addi"(%a, %b) : (i32, index) -> i32
    scf.yield %s : i32
  }
  return %v : i32
}

// Operand type constraints (MLIR's ODS invariants) are checked before the
// op's other traits, so this names the operand rather than the type mismatch.
func.func @fourth(%a: i32, %b: f32) -> i32 {
  // CHECK: [[@LINE+2]]:8: error: 'arith.addi' op operand #1 must be signless-integer-like, but got 'f32'
  // CHECK: [[@LINE+1]]:8: note: see current operation: %0 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, f32) -> i32
  %s = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return %s : i32
}
