// Pathologically deep input is rejected with a located error, not a crash.
// RUN: python3 -c "print('\"a.b\"() {x = ' + '['*5000 + ']'*5000 + '} : () -> ()')" > %t.deep.mlir
// RUN: not hivm-opt --allow-unregistered-dialect %t.deep.mlir 2>&1 | FileCheck %s
// CHECK: deep.mlir:1:1014: error: nesting is deeper than 1000 levels
// RUN: python3 -c "print('\"a.b\"() ({' * 900 + '\"a.c\"() : () -> ()' + '}) : () -> ()' * 900)" > %t.ok.mlir
// RUN: hivm-opt --allow-unregistered-dialect %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: "a.c"() : () -> ()
