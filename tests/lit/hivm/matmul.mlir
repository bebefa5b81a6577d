// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: %0 = hivm.hir.matmul ins(%arg0, %arg1 : tensor<64x64xf16>, tensor<64x64xf16>) outs(%arg2 : tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK: hivm.hir.matmul ins(%arg3, %arg4 : memref<64x64xf16>, memref<64x64xf16>) outs(%arg5 : memref<64x64xf32>) b_transpose descale_mode = <DescaleNull> block_sizes(%arg6, %arg6, %arg6 : i64, i64, i64) swizzle_offset = %arg6 : i64
func.func @mt(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>, %m: memref<64x64xf16>, %n: memref<64x64xf16>, %o: memref<64x64xf32>, %s: i64) -> tensor<64x64xf32> {
  %1 = hivm.hir.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  hivm.hir.matmul ins(%m, %n : memref<64x64xf16>, memref<64x64xf16>) outs(%o : memref<64x64xf32>) b_transpose descale_mode = <DescaleNull> block_sizes(%s, %s, %s : i64, i64, i64) swizzle_offset = %s : i64
  return %1 : tensor<64x64xf32>
}
