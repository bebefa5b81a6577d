// hivm.hir.mix_matmul with nothing fused into it is the global matmul: the
// same product (a workspace changes nothing); a post-vector function or
// communication parameters are refused at the op.
// RUN: hivm-run %s --entry plain --arg %S/Inputs/mat_a.npy --arg %S/Inputs/mat_b.npy --arg zeros:2xf32 --arg zeros:2x2xf32 --print 3 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not hivm-run %s --entry fused --arg %S/Inputs/mat_a.npy --arg %S/Inputs/mat_b.npy --arg zeros:2x2xf32 --arg zeros:2x2xf32 2>&1 | FileCheck %s --check-prefix=FUSED

// A = [[1, 2, 3], [4, 5, 6]] (f16), B = [[1, 0], [0, 1], [1, 1]], bias = [0.5, -1].
// PLAIN-NOT: error
// PLAIN: {{\[}}[4.5, 4],
// PLAIN-NEXT: [10.5, 10]]
func.func @plain(%a: memref<2x3xf16>, %b: memref<3x2xf16>, %bias: memref<2xf32>, %c: memref<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = arith.constant 0.5 : f32
  %m = arith.constant -1.0 : f32
  memref.store %h, %bias[%c0] : memref<2xf32>
  memref.store %m, %bias[%c1] : memref<2xf32>
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %ws = memref.alloc() : memref<64xf32>
  hivm.hir.mix_matmul ins(%a, %b : memref<2x3xf16>, memref<3x2xf16>) workspace_ins(%ws : memref<64xf32>) outs(%c : memref<2x2xf32>) bias = %bias : memref<2xf32>
  return
}

// FUSED: mix-matmul.mlir:[[@LINE+2]]:3: error: mix_matmul with a post-vector function fused into it is not supported by the CPU twin yet
func.func @fused(%a: memref<2x3xf16>, %b: memref<3x2xf16>, %v: memref<2x2xf32>, %c: memref<2x2xf32>) {
  hivm.hir.mix_matmul ins(%a, %b : memref<2x3xf16>, memref<3x2xf16>) post_vector_func_ins(%v : memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  return
}
