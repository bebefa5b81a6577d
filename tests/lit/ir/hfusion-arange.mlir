// hfusion.arange: strides per dimension and an optional offset; its body
// (built at the op's location) sums stride * index and casts to the element.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// CHECK: %1 = hfusion.arange offset[%c2] strides[%c1, %c2] outs(%0 : tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK: hfusion.arange strides[%c1] outs(%arg0 : memref<16xi64>){{$}}
// GEN: "hfusion.arange"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 1>}> ({
// GEN-NEXT: ^bb0(%[[A:arg[0-9]+]]: index, %[[B:arg[0-9]+]]: index, %[[C:arg[0-9]+]]: index, %{{.*}}: i32):
// GEN-NEXT: %[[I0:[0-9]+]] = "linalg.index"() <{dim = 0 : i64}>
// GEN-NEXT: %[[M0:[0-9]+]] = "arith.muli"(%[[B]], %[[I0]])
// GEN-NEXT: %[[I1:[0-9]+]] = "linalg.index"() <{dim = 1 : i64}>
// GEN-NEXT: %[[M1:[0-9]+]] = "arith.muli"(%[[C]], %[[I1]])
// GEN-NEXT: %[[S:[0-9]+]] = "arith.addi"(%[[M0]], %[[M1]])
// GEN-NEXT: %[[T:[0-9]+]] = "arith.addi"(%[[S]], %[[A]])
// GEN-NEXT: "arith.index_cast"(%[[T]]) : (index) -> i32
func.func @ranges(%m: memref<16xi64>) -> tensor<4x8xi32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<4x8xi32>
  %0 = hfusion.arange offset[%c2] strides[%c1, %c2] outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  hfusion.arange strides[%c1] outs(%m : memref<16xi64>)
  return %0 : tensor<4x8xi32>
}
