// custom_macro sync slots under the sync solver: an internal slot takes an id
// the solver's own syncs on its pipe pair do not use, a wait slot gets a
// set_flag injected just before the macro and a set slot a wait_flag just
// after it, pinned ids are honoured, and sync_related_args carries one i64
// per slot.
// RUN: hivm-opt %s -hivm-graph-sync-solver | FileCheck %s
// RUN: not hivm-opt %s -hivm-graph-sync-solver=solver-version=v3 2>&1 | FileCheck %s --check-prefix=VERSION

// VERSION: unknown solver-version 'v3' (expected v1 or v2)

// The wait slot's and the pinned set slot's ids come from the syncs that
// complement them, materialised at the top of the function.
// CHECK-LABEL: func.func @slots(
// CHECK-DAG: %[[PINNED:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[WAIT:.*]] = arith.constant 0 : i64
// The load feeds the macro's input on MTE2 (a barrier) and its output on V.
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_MTE2>]
// Every slot is filled: no dead -1 for an unfilled one.
// CHECK-NEXT: %[[INTERNAL:.*]] = arith.constant 1 : i64
// CHECK-NEXT: hivm.hir.custom_macro
// CHECK-SAME: sync_related_args(%[[WAIT]], %[[INTERNAL]], %[[PINNED]] : i64, i64, i64)
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID5>]
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
func.func @slots(%g: memref<16xf16, #hivm.address_space<gm>>)
    attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %c0 = arith.constant 0 : i64
  %b = hivm.hir.pointer_cast(%c0) : memref<16xf16, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<16xf16, #hivm.address_space<gm>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>,
      hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "m",
      sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE2>, wait>,
                          #hivm.sync_event_slot<internal>,
                          #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE3>, set, <EVENT_ID5>>]}
      "m" ins(%b : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}
