// RUN: hivm-opt %s -hivm-bind-sub-block | FileCheck %s

// Stores and custom ops of AIV functions in a mixed kernel run on sub-block 0;
// a custom op's tensor result falls back to its tied output elsewhere.
// CHECK:      %0 = hivm.hir.get_sub_block_idx -> i64
// CHECK-NEXT: %1 = arith.index_cast %0 : i64 to index
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %2 = arith.cmpi eq, %1, %c0 : index
// CHECK-NEXT: scf.if %2 {
// CHECK-NEXT:   hivm.hir.store
// CHECK-NEXT: } {limit_sub_block_id0}
// CHECK:      %6 = scf.if %5 -> (tensor<16xf16>) {
// CHECK-NEXT:   %7 = hivm.hir.custom
// CHECK-NEXT:   scf.yield %7 : tensor<16xf16>
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %arg2 : tensor<16xf16>
// CHECK-NEXT: } {limit_sub_block_id0}
// CHECK-NEXT: return %6 : tensor<16xf16>
func.func @k(%ub: memref<16xf16, #hivm.address_space<ub>>, %gm: memref<16xf16, #hivm.address_space<gm>>, %t: tensor<16xf16>) -> tensor<16xf16>
    attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  hivm.hir.store ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%gm : memref<16xf16, #hivm.address_space<gm>>)
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "u.x" ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%t : tensor<16xf16>) -> tensor<16xf16>
  return %r : tensor<16xf16>
}
