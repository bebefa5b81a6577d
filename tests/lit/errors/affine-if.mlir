// affine.if's checks, worded and placed as mlir-opt 22 does.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @a(%n: index) {
  affine.if affine_set<(d0) : (d0 >= 0)>(%n, %n) {
  }
  return
}

// -----

func.func @b(%n: index, %x: f32) {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> f32 {
    affine.yield %x : f32
  }
  return
}

// CHECK: affine-if.mlir:5:3: error: custom op 'affine.if' dim operand count and integer set dim count must match
// CHECK: affine-if.mlir:13:8: error: 'affine.if' op along control flow edge from parent to parent: region branch point has 0 operands, but region successor needs 1 inputs
