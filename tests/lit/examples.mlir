// The bundled examples parse, verify and round-trip.
// RUN: hivm-opt %S/../../examples/custom-add.mlir | hivm-opt | FileCheck %s --check-prefix=ADD
// ADD: hivm.hir.custom {bitcode = "custom_add.bc", hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "custom_add"
// RUN: hivm-opt %S/../../examples/macro-add.mlir | hivm-opt | FileCheck %s --check-prefix=MACRO
// MACRO: sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>]

// The README's main command: bufferize and lower to implementation calls
// (macro ops with slots pass -1 for the sync argument the solver fills).
// RUN: hivm-opt %S/../../examples/custom-add.mlir -one-shot-bufferize -convert-hivm-to-std | FileCheck %s --check-prefix=LOWER-ADD
// LOWER-ADD: func.func private @custom_add_int32(memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>) attributes {{.*}}llvm.emit_c_interface}
// LOWER-ADD: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32xi32>
// LOWER-ADD: linalg.fill ins(%{{.*}} : i32) outs(%[[OUT]] : memref<32xi32>)
// LOWER-ADD: %[[CAST:.*]] = memref.cast %[[OUT]] : memref<32xi32> to memref<?xi32, strided<[?], offset: ?>>
// LOWER-ADD: call @custom_add_int32(%{{.*}}, %{{.*}}, %[[CAST]])
// LOWER-ADD: memref.copy %[[OUT]], %{{.*}} : memref<32xi32> to memref<32xi32, strided<[1]>>
// LOWER-ADD-NOT: hivm.hir.custom
// RUN: hivm-opt %S/../../examples/macro-add.mlir -one-shot-bufferize -convert-hivm-to-std | FileCheck %s --check-prefix=LOWER-MACRO
// LOWER-MACRO: %[[SYNC:.*]] = arith.constant -1 : i64
// LOWER-MACRO: call @custom_macro_add_int32(%{{.*}}, %{{.*}}, %{{.*}}, %[[SYNC]])
