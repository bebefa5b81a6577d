// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s
// RUN: hivm-opt -allow-unregistered-dialect %s --mlir-print-op-generic | hivm-opt -allow-unregistered-dialect | FileCheck %s

// Every HIVM and HACC attribute kind prints as upstream spells it.
// CHECK: module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">, hivm.module_core_type = #hivm.module_core_type<MIX>}
// CHECK: func.func @f() attributes {hacc.always_inline, hacc.entry, hacc.function_kind = #hacc.function_kind<HOST>, hivm.func_core_type = #hivm.func_core_type<AIC_OR_AIV>}
// CHECK: "test.attrs"() {a = #hivm.tcore_type_marker<CUBE>, b = #hivm.inline_mode<no_inline>, c = #hivm.address_space<cbuf>, d = #hivm.dma_mode<nz2nd>, e = #hivm.event<EVENT_ID7>, f = #hivm.iterator_type<reduction>, g = #hacc.arg_type<gm_addr>, h = #hivm.pipe<VIRTUAL_PIPE_MTE2_L1A>, i = #hivm.pipe<PIPE_UNASSIGNED>, j = #hivm.vf_mode<MIX>, k = #hivm.sync_event_slot<#hivm.pipe<PIPE_FIX>, #hivm.pipe<PIPE_MTE5>, set, <EVENT_ID4>>} : () -> ()
// CHECK: "test.mem"() {m = memref<16xf32, #hivm.address_space<ub>>} : () -> ()
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>, hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @f() attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.entry, hacc.always_inline, hivm.func_core_type = #hivm.func_core_type<AIC_OR_AIV>} {
    "test.attrs"() {a = #hivm.tcore_type_marker<CUBE>, b = #hivm.inline_mode<no_inline>, c = #hivm.address_space<cbuf>,
                    d = #hivm.dma_mode<nz2nd>, e = #hivm.event<EVENT_ID7>, f = #hivm.iterator_type<reduction>,
                    g = #hacc.arg_type<gm_addr>, h = #hivm.pipe<VIRTUAL_PIPE_MTE2_L1A>, i = #hivm.pipe<PIPE_UNASSIGNED>,
                    j = #hivm.vf_mode<MIX>, k = #hivm.sync_event_slot<#hivm.pipe<PIPE_FIX>, #hivm.pipe<PIPE_MTE5>, set, <EVENT_ID4>>} : () -> ()
    "test.mem"() {m = memref<16xf32, #hivm.address_space<ub>>} : () -> ()
    return
  }
}
