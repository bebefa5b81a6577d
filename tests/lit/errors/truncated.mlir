// Truncated and garbage inputs give a located error and exit code 1.
// RUN: printf 'func.func @f() {\n  %%0 = arith.constant 1 : i32' > %t.trunc.mlir
// RUN: not hivm-opt %t.trunc.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: trunc.mlir:2:30: error: expected '}' to end region
// RUN: printf '"test.x"() {s = "abc} : () -> ()\n' > %t.str.mlir
// RUN: not hivm-opt --allow-unregistered-dialect %t.str.mlir 2>&1 | FileCheck %s --check-prefix=STR
// STR: str.mlir:1:17: error: expected '"' in string literal
// RUN: printf '\x00\xff\xfe garbage' > %t.bin.mlir
// RUN: not hivm-opt %t.bin.mlir 2>&1 | FileCheck %s --check-prefix=BIN
// BIN: bin.mlir:1:2: error: input is not valid UTF-8
// RUN: printf '"test.x"() : () -> ()\n\x01' > %t.ctl.mlir
// RUN: not hivm-opt --allow-unregistered-dialect %t.ctl.mlir 2>&1 | FileCheck %s --check-prefix=CTL
// CTL: ctl.mlir:2:1: error: unexpected character
