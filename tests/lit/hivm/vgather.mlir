// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: %0 = hivm.hir.vgather ins(%arg0 : tensor<512xf32>) indices(%arg1 : tensor<64xi32>) outs(%arg2 : tensor<64xf32>) -> tensor<64xf32>
// CHECK: hivm.hir.vgather ins(%arg3 : memref<512xf32>) indices(%arg4 : memref<64xi32>) outs(%arg5 : memref<64xf32>) temp_buffer(%arg6 : memref<256xi8>) gather_axis = 0
func.func @g(%s: tensor<512xf32>, %i: tensor<64xi32>, %d: tensor<64xf32>, %m: memref<512xf32>, %n: memref<64xi32>, %o: memref<64xf32>, %t: memref<256xi8>) -> tensor<64xf32> {
  %0 = hivm.hir.vgather ins(%s : tensor<512xf32>) indices(%i : tensor<64xi32>) outs(%d : tensor<64xf32>) -> tensor<64xf32>
  hivm.hir.vgather ins(%m : memref<512xf32>) indices(%n : memref<64xi32>) outs(%o : memref<64xf32>) temp_buffer(%t : memref<256xi8>) gather_axis = 0
  return %0 : tensor<64xf32>
}
