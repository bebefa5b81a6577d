// DIFF-MODE: hivm
func.func @mm(%a: tensor<1x4xf32>, %b: tensor<4x1xf32>, %c: tensor<1x1xf32>, %t: i1, %e: i64, %gm: memref<16x16xf16>, %l1: memref<1x1x16x16xf16>) -> tensor<1x1xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = hivm.hir.mmadL1 {fixpipe_already_inserted = true} ins(%a, %b, %t, %c1, %c4, %c1 : tensor<1x4xf32>, tensor<4x1xf32>, i1, index, index, index) outs(%c : tensor<1x1xf32>) -> tensor<1x1xf32>
  %1 = hivm.hir.mmadL1 {b_transpose} ins(%a, %b, %t, %c1, %c4, %c1 : tensor<1x4xf32>, tensor<4x1xf32>, i1, index, index, index) outs(%0 : tensor<1x1xf32>) sync_related_args(%e, %e : i64, i64) -> tensor<1x1xf32>
  hivm.hir.nd2nz ins(%gm : memref<16x16xf16>) outs(%l1 : memref<1x1x16x16xf16>) init_out_buffer = true
  return %1 : tensor<1x1xf32>
}
