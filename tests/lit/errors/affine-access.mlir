// affine.load / affine.store errors, in mlir-opt's words and places.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @rank(%m: memref<16x128xf16>, %c: f16, %i: index) {
  // CHECK: [[@LINE+1]]:3: error: 'affine.store' op affine map num results must equal memref rank
  affine.store %c, %m[%i] : memref<16x128xf16>
  return
}

// -----

func.func @non_affine(%m: memref<16x128xf16>, %i: index, %j: index) {
  // CHECK: [[@LINE+1]]:26: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic
  %0 = affine.load %m[%i * %j, 0] : memref<16x128xf16>
  return
}

// -----

func.func @unclosed(%m: memref<4xf16>, %i: index) {
  // CHECK: [[@LINE+1]]:25: error: expected ']' in affine map
  %0 = affine.load %m[%i : memref<4xf16>
  return
}

// -----

func.func @not_memref(%m: memref<4xf16>, %i: index) {
  // CHECK: [[@LINE+1]]:27: error: custom op 'affine.load' invalid kind of type specified: expected builtin.memref, but found 'tensor<4xf16>'
  %0 = affine.load %m[%i] : tensor<4xf16>
  return
}
