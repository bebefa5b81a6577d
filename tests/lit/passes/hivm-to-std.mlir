// RUN: hivm-opt -split-input-file %s -hacc-append-device-spec=target=Ascend950PR_9589 -convert-hivm-to-std | FileCheck %s
// RUN: hivm-opt -split-input-file %s -convert-hivm-to-std="mark-libcall-noinline=false" | FileCheck %s --check-prefix=MEMBASE

// Regbase targets convert every function; the declaration goes before the
// module's last op and memrefs are cast to fully dynamic strided layouts.
// CHECK-LABEL: func.func private @impl(memref<?x?xf32, strided<[?, ?], offset: ?>, #hivm.address_space<ub>>, i64) -> i32 attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hacc.noinline, hivm.func_core_type = #hivm.func_core_type<AIC>, llvm.emit_c_interface}
// CHECK-LABEL: func.func @user
// CHECK:         %cast = memref.cast %arg0 : memref<4x8xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[?, ?], offset: ?>, #hivm.address_space<ub>>
// CHECK-NEXT:    %0 = call @impl(%cast, %arg1) : (memref<?x?xf32, strided<[?, ?], offset: ?>, #hivm.address_space<ub>>, i64) -> i32
// CHECK-NEXT:    return %0 : i32
// Membase targets only convert DEVICE functions.
// MEMBASE-LABEL: func.func @user
// MEMBASE:         hivm.hir.custom
func.func @user(%a: memref<4x8xf32, #hivm.address_space<ub>>, %n: i64) -> i32 {
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_M>, symbol = "impl"} "u.x" ins(%a, %n : memref<4x8xf32, #hivm.address_space<ub>>, i64) -> i32
  return %0 : i32
}

// -----

// Memref-free ops call `_mlir_ciface_<symbol>`; macros with slots and no sync
// arguments get one shared -1.
// MEMBASE-LABEL: func.func private @_mlir_ciface_scalar_impl(i64) -> i64
// MEMBASE-LABEL: func.func private @macro_impl
// MEMBASE-SAME:    (memref<?xf32, strided<[?], offset: ?>>, i64, i64)
// MEMBASE-LABEL: func.func @device
// MEMBASE:         %0 = call @_mlir_ciface_scalar_impl(%arg1) : (i64) -> i64
// MEMBASE:         %c-1_i64 = arith.constant -1 : i64
// MEMBASE:         call @macro_impl(%cast, %c-1_i64, %c-1_i64)
func.func @device(%a: memref<4xf32>, %n: i64) -> i64 attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "scalar_impl"} "u.s" ins(%n : i64) -> i64
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "macro_impl", sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, wait>]} "u.m" outs(%a : memref<4xf32>)
  return %0 : i64
}

// -----

// Builtins call type-mangled library names.
// MEMBASE-LABEL: func.func @builtins
// MEMBASE:         call @histogram_1d_int16_t(%cast, %arg1, %cast_0)
func.func @builtins(%src: memref<16xi16>, %n: i64, %bins: memref<8xi32>) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
  hivm.hir.custom "__builtin_histogram" ins(%src, %n : memref<16xi16>, i64) outs(%bins : memref<8xi32>)
  return
}
