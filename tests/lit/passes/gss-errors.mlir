// Slot pins the sync solver cannot honour are errors at the macro.
// RUN: not hivm-opt %s -hivm-graph-sync-solver -split-input-file 2>&1 | FileCheck %s


// Two macros pinning the same id on one pipe pair cannot both have it.
// CHECK: gss-errors.mlir:[[@LINE+4]]:3: error: duplicate user-specified sync event id on the same pipe pair across custom_macro ops
func.func @duplicate_pin(%b: memref<16xf16, #hivm.address_space<ub>>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "m",
      sync_event_slots = [#hivm.sync_event_slot<internal, <EVENT_ID2>>]} "m" ins(%b : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "m",
      sync_event_slots = [#hivm.sync_event_slot<internal, <EVENT_ID2>>]} "m" ins(%b : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}

// -----

// PIPE_MTE2 -> PIPE_V keeps one of its eight ids back: EVENT_ID7 cannot be pinned.
// CHECK: gss-errors.mlir:[[@LINE+2]]:3: error: user-specified sync event id cannot be satisfied by GraphSyncSolver for this pipe pair
func.func @pin_out_of_range(%b: memref<16xf16, #hivm.address_space<ub>>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "m",
      sync_event_slots = [#hivm.sync_event_slot<internal, <EVENT_ID7>>]} "m" ins(%b : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<ub>>)
  return
}
