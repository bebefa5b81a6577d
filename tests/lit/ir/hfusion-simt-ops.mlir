// hfusion's gather/scatter ops for the SIMT templates, their masked
// gather_load, and signbit (generic form only, as upstream has no syntax
// for it). Each prints as upstream's declarative formats do and reads back
// from its generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @loads
// CHECK: %1 = hfusion.gather_load ins(%arg0 : memref<?xf16>, %arg1 : tensor<8x32xi64>, %c4_i32 : i32, %arg2 : tensor<8x32xi1>, %arg3 : tensor<8x32xf16>) outs(%0 : tensor<8x32xf16>) {isVolatile = true} -> tensor<8x32xf16>
// CHECK: hfusion.gather_load ins(%arg0 : memref<?xf16>, %arg1 : tensor<8x32xi64>, %c4_i32 : i32) outs(%arg4 : memref<8x32xf16>) {evict = #hfusion.eviction_policy<EvictLast>}{{$}}
// CHECK: hfusion.scatter_store ins(%arg1 : tensor<8x32xi64>, %1 : tensor<8x32xf16>, %c4_i32 : i32, %arg2 : tensor<8x32xi1>) outs(%arg0 : memref<?xf16>)
// GEN: "hfusion.gather_load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = true}> : (memref<?xf16>, tensor<8x32xi64>, i32, tensor<8x32xi1>, tensor<8x32xf16>, tensor<8x32xf16>) -> tensor<8x32xf16>
func.func @loads(%gm: memref<?xf16>, %idx: tensor<8x32xi64>, %keep: tensor<8x32xi1>, %fill: tensor<8x32xf16>, %ub: memref<8x32xf16>) {
  %burst = arith.constant 4 : i32
  %init = tensor.empty() : tensor<8x32xf16>
  %v = hfusion.gather_load ins(%gm : memref<?xf16>, %idx : tensor<8x32xi64>, %burst : i32, %keep : tensor<8x32xi1>, %fill : tensor<8x32xf16>) outs(%init : tensor<8x32xf16>) {isVolatile = true} -> tensor<8x32xf16>
  hfusion.gather_load ins(%gm : memref<?xf16>, %idx : tensor<8x32xi64>, %burst : i32) outs(%ub : memref<8x32xf16>) {evict = #hfusion.eviction_policy<EvictLast>}
  hfusion.scatter_store ins(%idx : tensor<8x32xi64>, %v : tensor<8x32xf16>, %burst : i32, %keep : tensor<8x32xi1>) outs(%gm : memref<?xf16>)
  return
}

// CHECK-LABEL: func.func @simt
// CHECK: %1 = hfusion.embedding_gather ins(%arg0 : memref<?xf32>, %arg1 : tensor<4x16xi32>, %c100_i64 : i64, [%c0_i64, %c0_i64, %c0_i64 : i64, i64, i64], [%c4_i64, %c16_i64, %c8_i64 : i64, i64, i64]) outs(%0 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
// CHECK: hfusion.index_put ins(%arg2 : memref<16x8xf32>, %arg3 : tensor<4xi64>, %arg4 : tensor<4x8xf32>, %c0_i32 : i32, %c16_i64 : i64, [%c4_i64, %c8_i64 : i64, i64], [%c0_i64, %c0_i64 : i64, i64], [%c8_i64, %c1_i64 : i64, i64]){{$}}
// CHECK: %3 = hfusion.gatherT ins(%arg0 : memref<?xf32>, %arg5 : tensor<4x8xi32>, %c16_i64 : i64, %c0_i32 : i32, [%c8_i64, %c1_i64 : i64, i64], [%c4_i64, %c8_i64 : i64, i64], [%c0_i64, %c0_i64 : i64, i64]) outs(%2 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %4 = "hfusion.signbit"(%arg4) : (tensor<4x8xf32>) -> tensor<4x8xi1>
// GEN: "hfusion.embedding_gather"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xf32>, tensor<4x16xi32>, tensor<4x16x8xf32>, i64, i64, i64, i64, i64, i64, i64) -> tensor<4x16x8xf32>
// GEN: "hfusion.index_put"
// GEN-NOT: operandSegmentSizes
// GEN-SAME: (memref<16x8xf32>, tensor<4xi64>, tensor<4x8xf32>, i32, i64, i64, i64, i64, i64, i64, i64) -> ()
func.func @simt(%table: memref<?xf32>, %ids: tensor<4x16xi32>, %dst: memref<16x8xf32>, %rows: tensor<4xi64>, %vals: tensor<4x8xf32>, %pick: tensor<4x8xi32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  %c8 = arith.constant 8 : i64
  %c16 = arith.constant 16 : i64
  %c100 = arith.constant 100 : i64
  %d0 = arith.constant 0 : i32
  %out = tensor.empty() : tensor<4x16x8xf32>
  %e = hfusion.embedding_gather ins(%table : memref<?xf32>, %ids : tensor<4x16xi32>, %c100 : i64, [%c0, %c0, %c0 : i64, i64, i64], [%c4, %c16, %c8 : i64, i64, i64]) outs(%out : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  hfusion.index_put ins(%dst : memref<16x8xf32>, %rows : tensor<4xi64>, %vals : tensor<4x8xf32>, %d0 : i32, %c16 : i64, [%c4, %c8 : i64, i64], [%c0, %c0 : i64, i64], [%c8, %c1 : i64, i64])
  %t = tensor.empty() : tensor<4x8xf32>
  %g = hfusion.gatherT ins(%table : memref<?xf32>, %pick : tensor<4x8xi32>, %c16 : i64, %d0 : i32, [%c8, %c1 : i64, i64], [%c4, %c8 : i64, i64], [%c0, %c0 : i64, i64]) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "hfusion.signbit"(%vals) : (tensor<4x8xf32>) -> tensor<4x8xi1>
  return
}
