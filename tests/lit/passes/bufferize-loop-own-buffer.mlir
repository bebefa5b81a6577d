// A loop body that yields a buffer of its own (an op writing a fresh tensor,
// not its iter_arg) gets it copied back into the iter_arg's buffer before the
// yield, as upstream's allowReturnAllocsFromLoops allows; the sums come out
// right on the twin.
// RUN: hivm-opt %s --split-input-file --one-shot-bufferize | FileCheck %s
// RUN: hivm-run %s --entry acc --arg %S/Inputs/ones8.npy --arg zeros:8xf32 --print 1 | FileCheck %s --check-prefix=SUM

// CHECK-LABEL: func.func @acc(
// CHECK: %[[INIT:[^ ]+]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %[[INIT]]) -> (memref<8xf32>) {
// CHECK-NEXT: %[[OWN:[^ ]+]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT: linalg.add ins(%[[ACC]], %{{.*}} : memref<8xf32>, memref<8xf32>) outs(%[[OWN]] : memref<8xf32>)
// CHECK-NEXT: memref.copy %[[OWN]], %[[ACC]] : memref<8xf32> to memref<8xf32>
// CHECK-NEXT: scf.yield %[[ACC]] : memref<8xf32>
// SUM: {{.*}}[4, 4, 4, 4, 4, 4, 4, 4]
func.func @acc(%x: memref<8xf32>, %o: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%cst : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %t = bufferization.to_tensor %x restrict : memref<8xf32> to tensor<8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %e2 = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%acc, %t : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  bufferization.materialize_in_destination %r in writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}
