// A custom_macro without sync_related_args (no sync solver ran) gets a
// distinct event id per declared slot, pinned ids as pinned; an event id
// outside 0..7, such as the -1 that lowering passes for an unsolved slot,
// is an error at the op.
// RUN: hivm-run %s --impl %S/Inputs/events.cpp --entry unsolved --arg zeros:2xi64 --print 0 | FileCheck %s --check-prefix=DISTINCT
// RUN: hivm-run %s --impl %S/Inputs/events.cpp --entry pinned --arg zeros:2xi64 --print 0 | FileCheck %s --check-prefix=PINNED
// RUN: hivm-run %s --impl %S/Inputs/events.cpp --entry solved --arg zeros:2xi64 --print 0 | FileCheck %s --check-prefix=SOLVED
// RUN: not hivm-run %s --impl %S/Inputs/events.cpp --entry minus_one --arg zeros:2xi64 2>&1 | FileCheck %s --check-prefix=MINUS
// RUN: not hivm-run %s --entry bad_static_id 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// DISTINCT: [0, 1]
func.func @unsolved(%ids: memref<2xi64>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "two_slots",
      sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal>]}
      "two" outs(%ids : memref<2xi64>)
  return
}

// The second slot is pinned to EVENT_ID0, so the first takes the next free id.
// PINNED: [1, 0]
func.func @pinned(%ids: memref<2xi64>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "two_slots",
      sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<internal, <EVENT_ID0>>]}
      "two" outs(%ids : memref<2xi64>)
  return
}

// SOLVED: [5, 3]
func.func @solved(%ids: memref<2xi64>) {
  %e5 = arith.constant 5 : i64
  %e3 = arith.constant 3 : i64
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "two_slots",
      sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<internal>]}
      "two" outs(%ids : memref<2xi64>) sync_related_args(%e5, %e3 : i64, i64)
  return
}

// MINUS: macro-events.mlir:[[@LINE+4]]:3: error: custom op 'two' (_mlir_ciface_two_slots): set_flag(PIPE_MTE2, PIPE_V, -1): event id -1 is not one of EVENT_ID0..EVENT_ID7
func.func @minus_one(%ids: memref<2xi64>) {
  %e0 = arith.constant 0 : i64
  %m1 = arith.constant -1 : i64
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "two_slots",
      sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<internal>]}
      "two" outs(%ids : memref<2xi64>) sync_related_args(%m1, %e0 : i64, i64)
  return
}

// DYNAMIC: macro-events.mlir:[[@LINE+3]]:3: error: event id 9 is not one of EVENT_ID0..EVENT_ID7 (the hardware has eight)
func.func @bad_static_id() {
  %e = arith.constant 9 : i64
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %e]
  return
}
