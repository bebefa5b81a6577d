// Named ops of upstream's LLVM 19 that MLIR 22 no longer has: the
// transposed matmuls (fixed maps, no indexing_maps stored) build the
// multiply-accumulate body like linalg.matmul.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: %0 = linalg.matmul_transpose_b ins(%arg0, %arg1 : tensor<16x32xf16>, tensor<8x32xf16>) outs(%arg2 : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK: linalg.matmul_transpose_a ins(%arg3, %arg3 : memref<4x4xf32>, memref<4x4xf32>) outs(%arg3 : memref<4x4xf32>){{$}}
// GEN: "linalg.matmul_transpose_b"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 2, 1>}> ({
// GEN-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// GEN-NEXT: "arith.extf"
// GEN-NEXT: "arith.extf"
// GEN-NEXT: "arith.mulf"
// GEN-NEXT: "arith.addf"
func.func @mm(%a: tensor<16x32xf16>, %b: tensor<8x32xf16>, %c: tensor<16x8xf32>, %m: memref<4x4xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul_transpose_b ins(%a, %b : tensor<16x32xf16>, tensor<8x32xf16>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  linalg.matmul_transpose_a ins(%m, %m : memref<4x4xf32>, memref<4x4xf32>) outs(%m : memref<4x4xf32>)
  return %0 : tensor<16x8xf32>
}
