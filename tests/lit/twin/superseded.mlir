// The sync checker forgets an access once a later access of the same pipe
// covers it, but only when that later instruction is complete: an in-place
// op reading x (which covers vadd's read of x) still races with vadd through
// its own write of x, on a target where PIPE_V does not run in order. Both
// an HIVM op and a custom op without a trace (read, then write).
// RUN: not hivm-run %s --entry in_place --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not hivm-run %s --impl %S/Inputs/inplace.cpp --entry custom_in_place --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: hivm-run %s --entry with_barrier --arg zeros:64xf32

module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  // RACE: superseded.mlir:[[@LINE+8]]:5: error: race: PIPE_V write of UB[0, 256) is not ordered after an earlier PIPE_V read of the same memory (no pipe_barrier[PIPE_V] between them)
  func.func @in_place(%out: memref<64xf32, #hivm.address_space<gm>>) {
    %x = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%out : memref<64xf32, #hivm.address_space<gm>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %y : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%x, %x : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }

  // CUSTOM: superseded.mlir:[[@LINE+8]]:5: error: race: PIPE_V write of UB[0, 256) is not ordered after an earlier PIPE_V read of the same memory (no pipe_barrier[PIPE_V] between them)
  func.func @custom_in_place(%out: memref<64xf32, #hivm.address_space<gm>>) {
    %x = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%out : memref<64xf32, #hivm.address_space<gm>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %y : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "double_it"} "double_it" ins(%x : memref<64xf32, #hivm.address_space<ub>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }

  func.func @with_barrier(%out: memref<64xf32, #hivm.address_space<gm>>) {
    %x = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%out : memref<64xf32, #hivm.address_space<gm>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %y : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vmul ins(%x, %x : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
