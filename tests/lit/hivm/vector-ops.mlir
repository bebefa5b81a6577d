// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: %1 = hivm.hir.vmul ins(%arg0, %arg1 : tensor<128x128xf32>, tensor<128x1xf32>) outs(%0 : tensor<128x128xf32>) broadcast = [1] -> tensor<128x128xf32>
// CHECK: hivm.hir.vexp ins(%arg2 : memref<16xf16>) outs(%arg3 : memref<16xf16>)
// CHECK: hivm.hir.vadd ins(%arg2, %arg3 : memref<16xf16>, memref<16xf16>) outs(%arg3 : memref<16xf16>) temp_buffer(%arg4 : memref<64xf16>)
// CHECK: hivm.hir.vtanh ins(%arg2 : memref<16xf16>) outs(%arg3 : memref<16xf16>) transpose = [0]
func.func @v(%a: tensor<128x128xf32>, %b: tensor<128x1xf32>, %m: memref<16xf16>, %n: memref<16xf16>, %t: memref<64xf16>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %0 = hivm.hir.vmul ins(%a, %b : tensor<128x128xf32>, tensor<128x1xf32>) outs(%e : tensor<128x128xf32>) broadcast = [1] -> tensor<128x128xf32>
  hivm.hir.vexp ins(%m : memref<16xf16>) outs(%n : memref<16xf16>)
  hivm.hir.vadd ins(%m, %n : memref<16xf16>, memref<16xf16>) outs(%n : memref<16xf16>) temp_buffer(%t : memref<64xf16>)
  hivm.hir.vtanh ins(%m : memref<16xf16>) outs(%n : memref<16xf16>) transpose = [0]
  return %0 : tensor<128x128xf32>
}
