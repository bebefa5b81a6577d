// DIFF-MODE: hivm -hivm-decompose-op
// What hivm-decompose-op makes of sync_block (flag sets and waits with and
// without ffts_base_addr, all three sync_instr_modes, flag ids of several
// widths) must survive mlir-opt's generic round trip.
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @cube(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_ALL> tvector_pipe = #hivm.pipe<PIPE_V>
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>, 5 : i16] tcube_pipe = #hivm.pipe<PIPE_FIX>
    return
  }
  func.func @vector(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_M> tvector_pipe = #hivm.pipe<PIPE_MTE3>
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_ALL>
    hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_VECTOR>]
    return
  }
}
