// mmadmxL1 on a target without the MX matmul is a located error naming the
// target, never a result; so is a module that names no target (upstream's
// default is the 910B).
// RUN: not hivm-run %s --entry mx 2>&1 | FileCheck %s
// RUN: sed 's/hacc.target = #hacc.target<"Ascend910B1">/hivm.x/' %s > %t.mlir
// RUN: not hivm-run %t.mlir --entry mx 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: cube-mx-910b.mlir:[[@LINE+13]]:3: error: mmadmxL1: the target Ascend910B1 has no MX matmul
// NONE: error: mmadmxL1: the module names no hacc.target, and upstream's default, Ascend910B, has no MX matmul
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
func.func @mx() {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 1024 : i64
  %la = hivm.hir.pointer_cast(%z) : memref<16x32xf8E4M3FN, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o) : memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>
  %s = hivm.hir.pointer_cast(%o) : memref<16x1xui8, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.mmadmxL1 ins(%la, %lb, %s, %s, %true, %c16, %c32, %c16 : memref<16x32xf8E4M3FN, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>, memref<16x1xui8, #hivm.address_space<cbuf>>, memref<16x1xui8, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  return
}
}
