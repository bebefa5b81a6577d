// The bundled examples parse, verify and round-trip.
// RUN: hivm-opt %S/../../examples/custom-add.mlir | hivm-opt | FileCheck %s --check-prefix=ADD
// ADD: hivm.hir.custom {bitcode = "custom_add.bc", hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "custom_add"
// RUN: hivm-opt %S/../../examples/macro-add.mlir | hivm-opt | FileCheck %s --check-prefix=MACRO
// MACRO: sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>]
