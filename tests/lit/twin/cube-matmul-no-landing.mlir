// A matmul no DMA handshake lands on (its L1 operands were loaded before
// an earlier matmul) still takes the solver's M -> MTE1 ids as
// sync_related_args. Without them its library would run its own L0
// ping-pong prologue, setting ids 0 and 1 again while the solver's bracket
// still holds them set (upstream leaves such a matmul without arguments,
// and the twin warned "sets a flag that is already set").
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 16x16 range:0:1:5
// RUN: hivm-opt %s -hivm-graph-sync-solver -o %t.mlir
// RUN: cat %t.mlir | FileCheck %s --check-prefix=IR
// RUN: hivm-run %t.mlir --arg %t.a.npy --arg %t.a.npy --arg zeros:16x48xf32 --arg 3 --print 2 2>&1 | FileCheck %s --implicit-check-not=warning --implicit-check-not=error
// IR: hivm.hir.mmadL1 {{.*}} sync_related_args(
// IR: scf.for
// IR: hivm.hir.mmadL1 {{.*}} sync_related_args(
// A @ A accumulated: each 16-column tile of C holds 1, 2 and 3 times A @ A.
// numpy: (A @ A)[0][:3] = 90, 60, 45.
// CHECK: arg 2 (memref<16x48xf32>): {{\[}}[90, 60, 45, {{.*}}, 180, 120, 90, {{.*}}, 270, 180, 135,
func.func @acc(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x48xf32>, %steps: index) {
  %true = arith.constant true
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i64
  %ob = arith.constant 4096 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%ob) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x16xf16>) outs(%l1a : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<16x16xf16>) outs(%l1b : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c16, %c16, %c16 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  scf.for %i = %c0 to %steps step %c1 {
    %off = arith.muli %i, %c16 : index
    %sc = memref.subview %c[0, %off] [16, 16] [1, 1] : memref<16x48xf32> to memref<16x16xf32, strided<[48, 1], offset: ?>>
    hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%sc : memref<16x16xf32, strided<[48, 1], offset: ?>>)
    hivm.hir.mmadL1 ins(%l1a, %l1b, %false, %c16, %c16, %c16 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  }
  return
}
