// affine.for's syntax errors, worded and placed as mlir-opt 22 does.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @a(%n: index) {
  affine.for %i = 0 to affine_map<(d0) -> (d0, 4)>(%n) {
  }
  return
}

// -----


// -----

func.func @c(%n: index) {
  affine.for %i = 0 to #foo {
  }
  return
}

// -----

func.func @d(%n: index) {
  affine.for %i = 0 to affine_map<(d0) -> (d0)>(%n, %n) {
  }
  return
}

// -----

func.func @e(%n: index, %f: f32) {
  %r = affine.for %i = 0 to 10 iter_args(%a = %f) -> (f32) {
    affine.yield
  }
  return
}

// CHECK: affine-for.mlir:5:24: error: custom op 'affine.for' upper loop bound affine map with multiple results requires 'min' prefix
// CHECK: affine-for.mlir:16:28: error: undefined symbol alias id 'foo'
// CHECK: affine-for.mlir:24:3: error: custom op 'affine.for' dim operand count and affine map dim count must match
// CHECK: affine-for.mlir:33:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands
