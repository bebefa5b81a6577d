// RUN: hivm-opt -split-input-file -verify-diagnostics -allow-unregistered-dialect %s

func.func @undefined(%a: i32) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %1 = arith.addi %a, %missing : i32
  return
}

// -----

func.func @redefined() {
  // expected-note @+1 {{previously defined here}}
  %0 = arith.constant 1 : i32
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = arith.constant 2 : i32
  return
}

// -----

func.func @mismatch(%a: i32) {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'i64' vs 'i32'}}
  %1 = arith.addi %a, %a : i64
  return
}

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"test.x"() {v = 300 : i8} : () -> ()

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
"test.x"() {v = -1 : ui8} : () -> ()

// -----

// expected-error @+1 {{use of undeclared identifier 'd1'}}
"test.x"() {m = affine_map<(d0) -> (d1)>} : () -> ()

// -----

// expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
"test.x"() {m = affine_map<(d0, d1) -> (d0 * d1)>} : () -> ()

// -----

// expected-error @+1 {{custom op 'func.nonsense' is unknown}}
func.nonsense

// -----

func.func @bad_block() {
  // expected-error @+1 {{reference to an undefined block}}
  cf.br ^missing
}

// -----

// expected-error @+1 {{expected non-function type}}
"test.x"() {t = memref<4x>} : () -> ()

// -----

// expected-error @+1 {{undefined symbol alias id 'nope'}}
"test.x"() {t = #nope} : () -> ()

// -----

// expected-error @+1 {{memref layout mismatch between rank and affine map: 2 != 1}}
"test.x"() {t = memref<4x4xf32, affine_map<(d0) -> (d0)>>} : () -> ()

// -----

// expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "test.x"() : () -> i32

// -----

// (`test` is registered, as in bishengir-opt, and accepts any op; others do not.)
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=UNREG
// UNREG: parse-errors.mlir:[[@LINE+1]]:8: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
"foo.x"() : () -> ()

// -----

// cf.switch takes integer flags only (mlir-opt's words and place).
func.func @switch_on_index(%i: index) {
  // expected-error @+1 {{custom op 'cf.switch' invalid kind of type specified: expected builtin.integer, but found 'index'}}
  cf.switch %i : index, [
    default: ^bb1
  ]
^bb1:
  return
}
