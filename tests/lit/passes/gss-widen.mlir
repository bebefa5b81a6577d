// Eight loop-carried V -> MTE2 syncs but seven ids on that pipe pair: the
// solver widens an earlier sync instead of falling back to a barrier on
// every pipe, and the result runs clean in the twin.
// RUN: hivm-opt %s -hivm-graph-sync-solver | FileCheck %s
// RUN: hivm-run %s --sync-solver --arg zeros:64xf32 --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK-COUNT-7: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID{{[0-6]}}>]
// CHECK-NEXT: scf.for
// CHECK-NOT: PIPE_ALL
// CHECK-NOT: EVENT_ID7
// CLEAN-NOT: error
func.func @widen(%g: memref<64xf32, #hivm.address_space<gm>>, %o: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a0 = arith.constant 0 : i64
  %b0 = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %a1 = arith.constant 256 : i64
  %b1 = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  %a2 = arith.constant 512 : i64
  %b2 = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  %a3 = arith.constant 768 : i64
  %b3 = hivm.hir.pointer_cast(%a3) : memref<64xf32, #hivm.address_space<ub>>
  %a4 = arith.constant 1024 : i64
  %b4 = hivm.hir.pointer_cast(%a4) : memref<64xf32, #hivm.address_space<ub>>
  %a5 = arith.constant 1280 : i64
  %b5 = hivm.hir.pointer_cast(%a5) : memref<64xf32, #hivm.address_space<ub>>
  %a6 = arith.constant 1536 : i64
  %b6 = hivm.hir.pointer_cast(%a6) : memref<64xf32, #hivm.address_space<ub>>
  %a7 = arith.constant 1792 : i64
  %b7 = hivm.hir.pointer_cast(%a7) : memref<64xf32, #hivm.address_space<ub>>
  %a8 = arith.constant 4096 : i64
  %acc = hivm.hir.pointer_cast(%a8) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b0 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b1 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b2 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b3 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b4 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b5 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b6 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b7 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b0, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b1, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b2, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b3, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b4, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b5, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b6, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b7, %acc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
  }
  hivm.hir.store ins(%acc : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
  return
}
