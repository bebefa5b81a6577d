// DIFF-MODE: hivm

// Attribute dictionary first (sorted), then the name, then segments.
func.func @basic(%a: memref<1xf32>, %b: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %r = hivm.hir.custom {symbol = "k_iter", hivm.vf_mode = #hivm.vf_mode<SIMD>, iterator_types = [#hivm.iterator_type<parallel>], hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe< PIPE_V >}
      "user.iter" ins(%a, %b : memref<1xf32>, tensor<1xf32>) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

// `extra_buffers_sizes` elides `: i64` inside the array; tmps are printed.
func.func @extra(%a: memref<4xf32>, %o: memref<4xf32>, %t: memref<512xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", max_rank = 3, extra_buffers_types = [f32, f16], extra_buffers_sizes = [512 : i64, 128 : i64]}
      "user.extra" ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) tmps(%t : memref<512xf32>)
  return
}

// -----

// Per-operand dictionaries print inline only when one holds `inplace_outs`.
// Explicit and inline dictionaries merge, inline entries winning.
func.func @inline_arg_attrs(%a: memref<256xf32>, %b: memref<256xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k_inplace"}
      "user.inplace" ins(%a : memref<256xf32> {inplace_outs = 0 : i32}) outs(%a : memref<256xf32>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k_align"}
      "user.align" ins(%a, %b : memref<256xf32> {align_dim = 0 : i64}, memref<256xf32>) outs(%b : memref<256xf32>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k_both", arg_attrs = [{align_dim = 0 : i64, inplace_outs = 5 : i32}]}
      "user.both" ins(%a : memref<256xf32> {inplace_outs = 0 : i32}) outs(%a : memref<256xf32>)
  return
}

// -----

// Scalar results with no outs, `no_side_effect`, distributed ops.
func.func @scalar_result() -> i32 {
  %0 = hivm.hir.custom {hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<CUBE_AND_VECTOR>, symbol = "aclshmem_n_pes", no_side_effect} "dist.aclshmem_n_pes" -> i32
  %1:2 = hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "two"} "user.two" -> (i32, i64)
  return %0 : i32
}

// -----

// Builtins need no symbol, pipe or core type.
func.func @builtin(%src: memref<16xi16>, %n: i64, %bins: memref<8xi32>) {
  hivm.hir.custom "__builtin_histogram" ins(%src, %n : memref<16xi16>, i64) outs(%bins : memref<8xi32>)
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.vf_mode = #hivm.vf_mode<SIMT>} "__builtin_gather_load" ins(%src : memref<16xi16>) outs(%bins : memref<8xi32>)
  return
}

// -----

// The macro: sync_related_args come after the result arrow; slots print canonically.
func.func @macro(%a: memref<4xf32>, %b: tensor<4xf32>, %e: i64) -> tensor<4xf32> {
  %empty = tensor.empty() : tensor<4xf32>
  %0 = hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k_custom_macro_sync",
      sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>,
                          #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE3>, internal>,
                          #hivm.sync_event_slot<internal>,
                          #hivm.sync_event_slot<internal, <EVENT_ID3>>,
                          #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_V>, <EVENT_ID2>>]}
      "user.macro_sync" ins(%a, %b : memref<4xf32>, tensor<4xf32>) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
      sync_related_args(%e, %e, %e, %e, %e : i64, i64, i64, i64, i64)
  return %0 : tensor<4xf32>
}

// -----

// VF mode is not needed without a 910_95-family target, nor for CUBE ops on one.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @cube(%a: memref<16xf32>) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hacc.entry} {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_M>, symbol = "cube_op"} "user.cube" ins(%a : memref<16xf32>) outs(%a : memref<16xf32>)
    return
  }
}
