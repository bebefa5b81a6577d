// RUN: hivm-opt %s --split-input-file --hivm-tensor-copy-insertion | FileCheck %s
// A second run finds nothing more to copy.
// RUN: hivm-opt %s --split-input-file --hivm-tensor-copy-insertion | hivm-opt --split-input-file --hivm-tensor-copy-insertion | FileCheck %s

// %sum is read by the vsub after the vexp would overwrite it in place: the
// vexp writes a copy instead (its size read from the tensor).
// CHECK-LABEL: func.func @read_after_write(
// CHECK: %[[SUM:.*]] = hivm.hir.vadd
// CHECK: %[[D:.*]] = tensor.dim %[[SUM]], %{{.*}} : tensor<8x?xf16>
// CHECK-NEXT: %[[NEW:.*]] = bufferization.alloc_tensor(%[[D]]) : tensor<8x?xf16>
// CHECK-NEXT: %[[CP:.*]] = hivm.hir.copy ins(%[[SUM]] : tensor<8x?xf16>) outs(%[[NEW]] : tensor<8x?xf16>) -> tensor<8x?xf16>
// CHECK-NEXT: %[[EXP:.*]] = hivm.hir.vexp ins(%[[SUM]] : tensor<8x?xf16>) outs(%[[CP]] : tensor<8x?xf16>)
// CHECK: hivm.hir.vsub ins(%[[SUM]], %[[EXP]] : tensor<8x?xf16>, tensor<8x?xf16>)
func.func @read_after_write(%a: tensor<8x?xf16>) -> tensor<8x?xf16> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<8x?xf16>
  %e = tensor.empty(%n) : tensor<8x?xf16>
  %sum = hivm.hir.vadd ins(%a, %a : tensor<8x?xf16>, tensor<8x?xf16>) outs(%e : tensor<8x?xf16>) -> tensor<8x?xf16>
  %exp = hivm.hir.vexp ins(%sum : tensor<8x?xf16>) outs(%sum : tensor<8x?xf16>) -> tensor<8x?xf16>
  %d = hivm.hir.vsub ins(%sum, %exp : tensor<8x?xf16>, tensor<8x?xf16>) outs(%exp : tensor<8x?xf16>) -> tensor<8x?xf16>
  return %d : tensor<8x?xf16>
}

// -----

// Without function boundaries a tensor argument is read-only: writing it
// goes to a copy.
// CHECK-LABEL: func.func @readonly_arg(
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
// CHECK: %[[CP:.*]] = hivm.hir.copy ins(%arg0 : tensor<4xf32>) outs(%[[NEW]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: hivm.hir.vabs ins(%arg0 : tensor<4xf32>) outs(%[[CP]] : tensor<4xf32>)
func.func @readonly_arg(%t: tensor<4xf32>) -> tensor<4xf32> {
  %m = hivm.hir.vabs ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
