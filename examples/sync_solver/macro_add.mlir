// The CustomOp document's macro_add, written without any synchronisation:
// the loads into UB, the custom_macro (reading on PIPE_MTE2, adding on
// PIPE_V, with one internal handshake) and the store are only ordered once
// the sync solver has run. hivm-run --sync-solver runs it first, then checks
// every pipe:
//   hivm-run examples/sync_solver/macro_add.mlir --sync-solver --arg zeros:32xi32 \
//     --arg examples/custom_macro_add/a.npy --arg examples/custom_macro_add/b.npy --print 0
// Without --sync-solver the same run reports the races.
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @macro_add(%out: memref<32xi32, #hivm.address_space<gm>>,
                       %a: memref<32xi32, #hivm.address_space<gm>>,
                       %b: memref<32xi32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %sum = memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
    hivm.hir.custom_macro
        {hivm.tcore_type = #hivm.tcore_type<VECTOR>,
         hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>,
         hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_macro_add_int32",
         source = "../custom_macro_add/macro_add.cpp",
         sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal>]}
        "macro_add" ins(%a, %b : memref<32xi32, #hivm.address_space<gm>>, memref<32xi32, #hivm.address_space<gm>>)
        outs(%sum : memref<32xi32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%sum : memref<32xi32, #hivm.address_space<ub>>) outs(%out : memref<32xi32, #hivm.address_space<gm>>)
    return
  }
}
