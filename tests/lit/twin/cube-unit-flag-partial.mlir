// Unit flags on a partial tile: the matmul writes 16 of L0C's 32 columns,
// so the matmul library leaves its unit flag off (it marks nothing ready)
// and the fixpipe's library, seeing the group's flag off, hands L0C over
// M -> FIX itself and reads without unit flags. The solver's output runs
// clean with the reference numbers. A fixpipe that waited on the unit
// flags regardless would hang: the twin used to report that.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 16x32 range:0:1
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x32 range:0:1
// RUN: hivm-opt %s -hivm-graph-sync-solver=enable-unit-flag=true -o %t.mlir
// RUN: cat %t.mlir | FileCheck %s --check-prefix=IR
// RUN: hivm-run %t.mlir --arg %t.a.npy --arg %t.b.npy --arg zeros:16x32xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// IR-NOT: <PIPE_M>, <PIPE_FIX>
// IR: hivm.hir.mmadL1 {{.*}}unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>])
// IR: hivm.hir.fixpipe {{.*}}unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>])
// Row 0: A[0][k] = k, B[k][j] = 32k + j, so C[0][j] = 333312 + 496j for
// the 16 columns written; the rest of the output stays 0.
// CHECK: arg 2 (memref<16x32xf32>): {{\[}}[333312, 333808, 334304,
// CHECK-SAME: 340256, 340752, 0, 0,
func.func @partial(%a: memref<16x32xf16>, %b: memref<32x32xf16>, %c: memref<16x32xf32>) {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 1024 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x32xf16>) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c16, %c32, %c16 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x1x16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<16x32xf32>)
  return
}
