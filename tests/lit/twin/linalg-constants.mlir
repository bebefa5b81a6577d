// Tensor constants (splat or not) bufferize to memref.globals, which the
// twin fills from their initial values; integers wrap at their width.
// RUN: hivm-run %s --arg zeros:4xf32 --arg zeros:2x2xi16 --print 0 --print 1 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: [3, 4, 6, 8]
// CHECK-NEXT: {{\[\[}}2, -4],
// CHECK-NEXT: [600, 0]]
module {
func.func @consts(%o: memref<4xf32>, %o2: memref<2x2xi16>) {
  %a = arith.constant dense<[1.5, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.mulf %a, %b : tensor<4xf32>
  bufferization.materialize_in_destination %0 in writable %o : (tensor<4xf32>, memref<4xf32>) -> ()
  %c = arith.constant dense<[[1, -2], [300, -32768]]> : tensor<2x2xi16>
  %d = arith.addi %c, %c : tensor<2x2xi16>
  bufferization.materialize_in_destination %d in writable %o2 : (tensor<2x2xi16>, memref<2x2xi16>) -> ()
  return
}
}
