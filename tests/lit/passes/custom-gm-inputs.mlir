// A custom op whose input pipe is MTE2 moves its inputs from GM itself: it is
// given the GM view a plain load copied into UB, and the load goes. A padded
// load, or a store to GM between load and op, keeps the UB copy.
// RUN: hivm-opt %s --split-input-file --hivm-custom-gm-inputs | FileCheck %s

// CHECK-LABEL: func.func @macro_reads_gm(
// CHECK-SAME: %[[A:[^:]+]]: memref<32xi32, #hivm.address_space<gm>>
// CHECK-NOT: hivm.hir.load
// CHECK-NOT: memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
// CHECK: hivm.hir.custom_macro {{.*}} ins(%[[A]] : memref<32xi32, #hivm.address_space<gm>>)
func.func @macro_reads_gm(%a: memref<32xi32, #hivm.address_space<gm>>, %o: memref<32xi32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : i64
  %u = memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%a : memref<32xi32, #hivm.address_space<gm>>) outs(%u : memref<32xi32, #hivm.address_space<ub>>)
  hivm.hir.custom_macro {hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "m", sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>]} "m" ins(%u : memref<32xi32, #hivm.address_space<ub>>) outs(%o : memref<32xi32, #hivm.address_space<ub>>) sync_related_args(%c0 : i64)
  return
}

// -----

// CHECK-LABEL: func.func @vector_op_keeps_ub
// CHECK: hivm.hir.load
// CHECK: hivm.hir.custom {{.*}} ins(%{{.*}} : memref<32xi32, #hivm.address_space<ub>>)
// CHECK-LABEL: func.func @store_between
// CHECK: hivm.hir.load
// CHECK: hivm.hir.store
// CHECK: hivm.hir.custom_macro {{.*}} ins(%{{.*}} : memref<32xi32, #hivm.address_space<ub>>)
func.func @vector_op_keeps_ub(%a: memref<32xi32, #hivm.address_space<gm>>, %o: memref<32xi32, #hivm.address_space<ub>>) {
  %u = memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%a : memref<32xi32, #hivm.address_space<gm>>) outs(%u : memref<32xi32, #hivm.address_space<ub>>)
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "v"} "v" ins(%u : memref<32xi32, #hivm.address_space<ub>>) outs(%o : memref<32xi32, #hivm.address_space<ub>>)
  return
}
func.func @store_between(%a: memref<32xi32, #hivm.address_space<gm>>, %o: memref<32xi32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : i64
  %u = memref.alloc() : memref<32xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%a : memref<32xi32, #hivm.address_space<gm>>) outs(%u : memref<32xi32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%o : memref<32xi32, #hivm.address_space<ub>>) outs(%a : memref<32xi32, #hivm.address_space<gm>>)
  hivm.hir.custom_macro {hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "m", sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>]} "m" ins(%u : memref<32xi32, #hivm.address_space<ub>>) outs(%o : memref<32xi32, #hivm.address_space<ub>>) sync_related_args(%c0 : i64)
  return
}
