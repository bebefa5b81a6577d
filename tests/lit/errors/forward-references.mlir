// Forward references that do not resolve validly: an op using its own result
// outside a graph region, uses that are not dominated by their definition,
// and a definition whose type differs from an earlier use. mlir-opt 22
// gives the same diagnostics for this file.
// RUN: not hivm-opt %s -allow-unregistered-dialect -split-input-file 2>&1 | FileCheck %s

func.func @f(%a: i64) {
  %1 = "foo"(%1, %a) : (i64, i64) -> i64
  return
}
// -----
func.func @g(%a: i64) {
  cf.br ^bb2
^bb1:
  %x = "use"(%y) : (i64) -> i64
  return
^bb2:
  %y = "def"() : () -> i64
  cf.br ^bb1
}
// -----
func.func @h() {
  "wrap"() ({
    %z = "def"() : () -> i64
    "t"() : () -> ()
  }) : () -> ()
  %u = "use"(%w) : (i64) -> i64
  "wrap"() ({
    %w = "def"() : () -> i64
    "t"() : () -> ()
  }) : () -> ()
  return
}
// -----
func.func @k(%c: i1) {
  cf.cond_br %c, ^bb1(%c : i1), ^bb2
^bb1(%p: i1):
  cf.br ^bb2
^bb2:
  "use"(%p) : (i1) -> ()
  return
}
// -----
func.func @m() {
  %u = "use"(%w) : (i64) -> i64
  "wrap"() ({
    %w = "def"() : () -> i64
    "t"() : () -> ()
  }) : () -> ()
  return
}
// -----
"test.graph"() ({
  %v = "test.node"(%v) : (f32) -> i64
  "test.end"() : () -> ()
}) : () -> ()

// CHECK: {{.*}}forward-references.mlir:8:8: error: operand #0 does not dominate this use
// CHECK: {{.*}}forward-references.mlir:8:8: note: operand defined here (op in the same block)
// CHECK: {{.*}}forward-references.mlir:27:8: error: operand #0 does not dominate this use
// CHECK: {{.*}}forward-references.mlir:29:10: note: operand defined here (op in a child region)
// CHECK: {{.*}}forward-references.mlir:40:3: error: operand #0 does not dominate this use
// CHECK: {{.*}}forward-references.mlir:35:1: note: operand defined as a block argument (block #1 in the same region)
// CHECK: {{.*}}forward-references.mlir:45:8: error: operand #0 does not dominate this use
// CHECK: {{.*}}forward-references.mlir:47:10: note: operand defined here (op in a child region)
// CHECK: {{.*}}forward-references.mlir:54:3: error: definition of SSA value '%v#0' has type 'i64'
// CHECK: {{.*}}forward-references.mlir:54:20: note: previously used here with type 'f32'
