// Beyond upstream: when a macro's slot finds no free event id, the solver
// makes room rather than failing. Six loads whose MTE2 -> V syncs are all
// pending at a macro with two internal MTE2 -> V slots would need eight of
// the pair's seven ids; the solver widens one of its own syncs (the loads
// of %b0 and %b1 share one set) and the slots take the two ids left. The
// result runs clean in the twin: acc = 2 b0 + b1 + ... + b5 + (g + 1).
// RUN: hivm-opt %s -hivm-graph-sync-solver | FileCheck %s --check-prefix=ROOM
// RUN: python3 %root/scripts/npy.py %t.g.npy f32 64 range:0:1
// RUN: hivm-run %s --sync-solver --impl %S/Inputs/two_handshakes.cpp --arg %t.g.npy --arg zeros:64xf32 --print 1 2>&1 | FileCheck %s --check-prefix=NUMS --implicit-check-not=error --implicit-check-not=warning
// ROOM-COUNT-5: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-4]}}>]
// ROOM: %c6_i64 = arith.constant 6 : i64
// ROOM-NEXT: %c5_i64 = arith.constant 5 : i64
// ROOM-NEXT: hivm.hir.custom_macro {{.*}} sync_related_args(%c6_i64, %c5_i64 : i64, i64)
// ROOM-NOT: PIPE_ALL
// NUMS: [1, 9, 17, 25,
// NUMS-SAME: 489, 497, 505]
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @six_loads(%g: memref<64xf32, #hivm.address_space<gm>>, %o: memref<64xf32, #hivm.address_space<gm>>) {
    %a0 = arith.constant 0 : i64
    %a1 = arith.constant 256 : i64
    %a2 = arith.constant 512 : i64
    %a3 = arith.constant 768 : i64
    %a4 = arith.constant 1024 : i64
    %a5 = arith.constant 1280 : i64
    %a6 = arith.constant 1536 : i64
    %a7 = arith.constant 1792 : i64
    %a8 = arith.constant 2048 : i64
    %b0 = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
    %b1 = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
    %b2 = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
    %b3 = hivm.hir.pointer_cast(%a3) : memref<64xf32, #hivm.address_space<ub>>
    %b4 = hivm.hir.pointer_cast(%a4) : memref<64xf32, #hivm.address_space<ub>>
    %b5 = hivm.hir.pointer_cast(%a5) : memref<64xf32, #hivm.address_space<ub>>
    %m = hivm.hir.pointer_cast(%a6) : memref<64xf32, #hivm.address_space<ub>>
    %scr = hivm.hir.pointer_cast(%a7) : memref<64xf32, #hivm.address_space<ub>>
    %acc = hivm.hir.pointer_cast(%a8) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b0 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b1 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b2 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b3 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b4 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%b5 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "two_slots", sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<internal>]} "m" ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%m : memref<64xf32, #hivm.address_space<ub>>) tmps(%scr : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%b0, %b0 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %b1 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %b2 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %b3 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %b4 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %b5 : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%acc, %m : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%acc : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%acc : memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}
