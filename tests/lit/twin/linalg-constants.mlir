// Tensor constants (splat or not) bufferize to memref.globals, which the
// twin fills from their initial values; integers wrap at their width.
// tensor.splat fills a fresh buffer (linalg.map), static or dynamic.
// RUN: hivm-run %s --entry consts --arg zeros:4xf32 --arg zeros:2x2xi16 --print 0 --print 1 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: hivm-run %s --entry splats --arg 1.25 --arg 3 --arg zeros:8xf32 --arg zeros:3x4xf32 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=SPLAT --implicit-check-not=error
// SPLAT: [2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5]
// SPLAT-NEXT: {{\[\[}}1.25, 1.25, 1.25, 1.25],
// SPLAT-NEXT: [1.25, 1.25, 1.25, 1.25],
// SPLAT-NEXT: [1.25, 1.25, 1.25, 1.25]]
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
  func.func @splats(%s: f32, %n: index, %o: memref<8xf32>, %o2: memref<?x4xf32>) {
    %t = tensor.splat %s : tensor<8xf32>
    %u = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    bufferization.materialize_in_destination %u in writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
    %d = tensor.splat %s[%n] : tensor<?x4xf32>
    bufferization.materialize_in_destination %d in writable %o2 : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
    return
  }
}
