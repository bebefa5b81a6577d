// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// The default rounding (rint) and signed cast are not printed.
// CHECK: %0 = hivm.hir.vcast ins(%arg0 : tensor<24x48xf32>) outs(%arg1 : tensor<24x48xbf16>) -> tensor<24x48xbf16>
// CHECK: hivm.hir.vcast ins(%arg2 : memref<2x16xf16>) outs(%arg3 : memref<2x16xi8>) round_mode = <floor> cast = <cast_unsigned>
func.func @c(%a: tensor<24x48xf32>, %o: tensor<24x48xbf16>, %m: memref<2x16xf16>, %n: memref<2x16xi8>) -> tensor<24x48xbf16> {
  %8 = hivm.hir.vcast ins(%a : tensor<24x48xf32>) outs(%o : tensor<24x48xbf16>) round_mode = <rint> -> tensor<24x48xbf16>
  hivm.hir.vcast ins(%m : memref<2x16xf16>) outs(%n : memref<2x16xi8>) round_mode = <floor> cast = <cast_unsigned>
  return %8 : tensor<24x48xbf16>
}
