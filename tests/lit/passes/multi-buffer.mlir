// Multi-buffering: marking the local buffers DMA ops use in loops, placing
// local allocs at addresses (two per double-buffered one), and splitting a
// double-buffered pointer_cast into copies chosen by the iteration count.
// RUN: hivm-opt %s -split-input-file -hivm-mark-multi-buffer=enable-auto=true | FileCheck %s --check-prefix=MARK
// RUN: hivm-opt %s -split-input-file -hacc-append-device-spec=target=Ascend910B1 -hivm-mark-multi-buffer=enable-auto=true -hivm-plan-memory | FileCheck %s --check-prefix=PLAN
// RUN: hivm-opt %s -split-input-file -hivm-mark-multi-buffer | FileCheck %s --check-prefix=OFF

// A buffer a load fills in a loop, and one nd2nz fills in L1, are marked;
// one allocated outside the loop, or in a parallel loop, is not.
// MARK-LABEL: func.func @mark(
// MARK: scf.for
// MARK-NEXT: %[[IN:.*]] = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
// MARK-NEXT: annotation.mark %[[IN]] {hivm.multi_buffer = 2 : i32}
// MARK: %[[L1:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// MARK-NEXT: annotation.mark %[[L1]] {hivm.multi_buffer = 2 : i32}
// MARK: scf.parallel
// MARK-NOT: annotation.mark
// MARK: return
// OFF-NOT: annotation.mark

// UB: the buffer alive around the loop is first (from the loop on), then the
// loop's buffer, the parallel loop's, and last the loop buffer's second copy;
// L1 on its own. Addresses are constants made at the top, newest first.
// PLAN-LABEL: func.func @mark(
// PLAN-NEXT: %[[C512:.*]] = arith.constant 512 : i64
// PLAN-NEXT: %[[C768:.*]] = arith.constant 768 : i64
// PLAN-NEXT: %[[C256:.*]] = arith.constant 256 : i64
// PLAN-NEXT: %[[C0:.*]] = arith.constant 0 : i64
// PLAN: hivm.hir.pointer_cast(%[[C0]]) : memref<64xf32, #hivm.address_space<ub>>
// PLAN: scf.for
// PLAN-NEXT: %[[L1:.*]] = hivm.hir.pointer_cast(%[[C0]], %[[C512]]) : memref<16x16xf16, #hivm.address_space<cbuf>>
// PLAN-NEXT: annotation.mark %[[L1]]
// PLAN-NEXT: %[[IN:.*]] = hivm.hir.pointer_cast(%[[C256]], %[[C768]]) : memref<64xf32, #hivm.address_space<ub>>
// PLAN-NEXT: annotation.mark %[[IN]]
// PLAN-NEXT: hivm.hir.load {{.*}} outs(%[[IN]] :
// PLAN: scf.parallel
// PLAN-NEXT: hivm.hir.pointer_cast(%[[C512]]) : memref<64xf32, #hivm.address_space<ub>>
func.func @mark(%gm: memref<64xf32, #hivm.address_space<gm>>, %l1src: memref<16x16xf16, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %outside = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    %in = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%gm : memref<64xf32, #hivm.address_space<gm>>) outs(%in : memref<64xf32, #hivm.address_space<ub>>)
    %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    hivm.hir.nd2nz {dst_continuous} ins(%l1src : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.store ins(%in : memref<64xf32, #hivm.address_space<ub>>) outs(%gm : memref<64xf32, #hivm.address_space<gm>>)
    hivm.hir.load ins(%gm : memref<64xf32, #hivm.address_space<gm>>) outs(%outside : memref<64xf32, #hivm.address_space<ub>>)
  }
  scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
    %p = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%gm : memref<64xf32, #hivm.address_space<gm>>) outs(%p : memref<64xf32, #hivm.address_space<ub>>)
    scf.reduce
  }
  return
}
