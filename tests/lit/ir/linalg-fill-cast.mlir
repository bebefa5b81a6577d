// linalg.fill converts its value to the output's element type in its body,
// as upstream's LLVM 19 builds it (MLIR 22 rejects the mismatch; upstream's
// kernels use it), so the body stays well typed.
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s --check-prefix=CUSTOM

// CHECK: "linalg.fill"
// CHECK-NEXT: ^bb0(%[[V:arg[0-9]+]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[C:[0-9]+]] = "arith.sitofp"(%[[V]]) : (i64) -> f32
// CHECK-NEXT: "linalg.yield"(%[[C]]) : (f32) -> ()
// CUSTOM: %0 = linalg.fill ins(%arg0 : i64) outs(%arg1 : tensor<4xf32>) -> tensor<4xf32>
func.func @widen(%c: i64, %e: tensor<4xf32>) -> tensor<4xf32> {
  %1 = linalg.fill ins(%c : i64) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
