// LLVM calls and address-of check the symbols they name, in mlir-opt's words.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

llvm.func @f() {
  // expected-error@+1 {{'llvm.call' op 'nope' does not reference a symbol in the current scope}}
  llvm.call @nope() : () -> ()
  llvm.return
}

// -----

llvm.func @g(i32)
llvm.func @f() {
  // expected-error@+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @g2 : !llvm.ptr
  llvm.return
}

// -----

llvm.func @g(i32)
llvm.func @f(%a: i64) {
  // expected-error@+1 {{'llvm.call' op operand type mismatch for operand 0: 'i64' != 'i32'}}
  llvm.call @g(%a) : (i64) -> ()
  llvm.return
}

// -----

llvm.func @g(i32, ...)
llvm.func @f(%a: i32, %b: f32) {
  llvm.call @g(%a, %b) vararg(!llvm.func<void (i32, ...)>) : (i32, f32) -> ()
  // expected-error@+1 {{'llvm.call' op missing var_callee_type attribute for vararg call}}
  llvm.call @g(%a, %b) : (i32, f32) -> ()
  llvm.return
}

// -----

llvm.func @g(i32)
llvm.func @f() {
  // expected-error@+1 {{'llvm.call' op incorrect number of operands (0) for callee (expecting: 1)}}
  llvm.call @g() : () -> ()
  llvm.return
}
