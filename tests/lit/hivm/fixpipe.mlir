// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// `{enable_nz2nd}` is the old spelling of `dma_mode = nz2nd`; defaults are not printed.
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%arg0 : tensor<1x1xf32>) outs(%arg1 : memref<1x1xf32, strided<[1, 1], offset: ?>>)
// CHECK: %0 = hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_quant = #hivm.fixpipe_pre_quant_mode<F322BF16>} ins(%arg2 : tensor<2x2xf32>) outs(%arg3 : tensor<2x2xbf16>) -> tensor<2x2xbf16>
// CHECK: hivm.hir.fixpipe ins(%arg0 : tensor<1x1xf32>) outs(%arg1 : memref<1x1xf32, strided<[1, 1], offset: ?>>)
func.func @fx(%s: tensor<1x1xf32>, %d: memref<1x1xf32, strided<[1, 1], offset: ?>>, %t: tensor<2x2xf32>, %u: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  hivm.hir.fixpipe {enable_nz2nd} ins(%s : tensor<1x1xf32>) outs(%d : memref<1x1xf32, strided<[1, 1], offset: ?>>)
  %0 = hivm.hir.fixpipe {enable_nz2nd, pre_quant = #hivm.fixpipe_pre_quant_mode<F322BF16>} ins(%t : tensor<2x2xf32>) outs(%u : tensor<2x2xbf16>) -> tensor<2x2xbf16>
  hivm.hir.fixpipe {pre_relu = #hivm.fixpipe_pre_relu_mode<NO_RELU>} ins(%s : tensor<1x1xf32>) outs(%d : memref<1x1xf32, strided<[1, 1], offset: ?>>)
  return %0 : tensor<2x2xbf16>
}
