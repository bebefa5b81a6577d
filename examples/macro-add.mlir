// The same addition as a `custom_macro`: the implementation moves data in on
// PIPE_MTE2 and computes on PIPE_V, synchronising those two pipes itself
// through the one `internal` slot it declares.
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @macro_add(%out: memref<32xi32>, %lhs: memref<32xi32>, %rhs: memref<32xi32>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    hivm.hir.custom_macro
        {hivm.tcore_type = #hivm.tcore_type<VECTOR>,
         hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>,
         hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_macro_add_int32", bitcode = "macro_add.bc",
         sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal>]}
        "macro_add" ins(%lhs, %rhs : memref<32xi32>, memref<32xi32>) outs(%out : memref<32xi32>)
    return
  }
}
