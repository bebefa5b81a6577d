// vcmp and vsel, and the signedness clauses of vdiv/vmax/vmin/vcmp (printed
// only when not the default true; their defaults materialised).
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

func.func @f(%a: memref<16xf16, #hivm.address_space<ub>>, %b: memref<16xf16, #hivm.address_space<ub>>, %m: memref<16xi1, #hivm.address_space<ub>>, %t: tensor<8xi32>, %tm: tensor<8xi1>, %s: f16, %tmp: memref<16xf16, #hivm.address_space<ub>>) -> tensor<8xi1> {
  // CHECK: hivm.hir.vcmp {x} ins(%arg0, %arg1 : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%arg2 : memref<16xi1, #hivm.address_space<ub>>){{$}}
  // GENERIC: "hivm.hir.vcmp"(%arg0, %arg1, %arg2) <{broadcast = array<i64>, compare_mode = #hivm.compare_mode<eq>, is_signed = true, operandSegmentSizes = array<i32: 2, 1, 0>, transpose = array<i64>}> {x}
  hivm.hir.vcmp {x} ins(%a, %b : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%m : memref<16xi1, #hivm.address_space<ub>>)
  // CHECK: outs(%arg2 : memref<16xi1, #hivm.address_space<ub>>) compare_mode = <lt> is_signed : false
  hivm.hir.vcmp ins(%a, %b : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%m : memref<16xi1, #hivm.address_space<ub>>) compare_mode = <lt> is_signed : false
  // CHECK: outs(%arg4 : tensor<8xi1>) -> tensor<8xi1>
  %r = hivm.hir.vcmp ins(%t, %t : tensor<8xi32>, tensor<8xi32>) outs(%tm : tensor<8xi1>) compare_mode = <eq> -> tensor<8xi1>
  // CHECK: hivm.hir.vsel ins(%arg2, %arg5, %arg1 : memref<16xi1, #hivm.address_space<ub>>, f16, memref<16xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16xf16, #hivm.address_space<ub>>) temp_buffer(%arg6 : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.vsel ins(%m, %s, %b : memref<16xi1, #hivm.address_space<ub>>, f16, memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<ub>>) temp_buffer(%tmp : memref<16xf16, #hivm.address_space<ub>>)
  // CHECK: isSigned = false
  // GENERIC: "hivm.hir.vdiv"(%arg0, %arg1, %arg0) <{broadcast = array<i64>, isHP = false, isSigned = false,
  hivm.hir.vdiv ins(%a, %b : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<ub>>) isSigned = false
  // CHECK: is_signed = false
  hivm.hir.vmax ins(%a, %b : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<ub>>) is_signed = false
  return %r : tensor<8xi1>
}
