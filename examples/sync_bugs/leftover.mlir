// Sync bug (c), a flag left set: PIPE_V sets event 1 for PIPE_MTE3 and
// nothing ever waits for it.
//   hivm-run examples/sync_bugs/leftover.mlir --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @triton_custom_macro_add(%out: memref<32xi32, #hivm.address_space<gm>>,
                                     %a: memref<32xi32, #hivm.address_space<gm>>,
                                     %b: memref<32xi32, #hivm.address_space<gm>>) {
    %sum = memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
    hivm.hir.custom_macro
        {hivm.tcore_type = #hivm.tcore_type<VECTOR>,
         hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>,
         hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_macro_add_int32", source = "../custom_macro_add/macro_add.cpp",
         sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal>]}
        "macro_add" ins(%a, %b : memref<32xi32, #hivm.address_space<gm>>, memref<32xi32, #hivm.address_space<gm>>)
        outs(%sum : memref<32xi32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%sum : memref<32xi32, #hivm.address_space<ub>>) outs(%out : memref<32xi32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
