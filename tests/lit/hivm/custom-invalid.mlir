// RUN: hivm-opt -split-input-file -verify-diagnostics -allow-unregistered-dialect %s

func.func @no_core(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Missing core type information}}
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @no_pipe(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Missing pipe information}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @macro_pipes(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op Missing output pipe information}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

// A missing symbol is reported twice, as upstream does.
func.func @no_symbol(%a: memref<4xf32>) {
  // expected-error @+2 {{'hivm.hir.custom' op Missing implementation function name}}
  // expected-error @+1 {{'hivm.hir.custom' op Missing implementation function name}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910_9589">} {
  func.func @vf_required(%a: memref<4xf32>) {
    // expected-error @+1 {{'hivm.hir.custom' op Missing vf mode information}}
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
    return
  }
}

// -----

func.func @builtin_conflict(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Specified pipe conflict with __builtin_gather_load's pipe.}}
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_S>} "__builtin_gather_load" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @builtin_core_conflict(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Specified core type conflict with __builtin_histogram's core type.}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>} "__builtin_histogram" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @macro_builtin_name_is_not_builtin(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op Missing core type information}}
  hivm.hir.custom_macro "__builtin_histogram" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @outs_scalar(%a: memref<4xf32>, %s: f32) {
  // expected-error @+1 {{'hivm.hir.custom' op expected that operand #1 is a tensor or a memref}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%s : f32)
  return
}

// -----

func.func @tensor_results(%t: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>)
  return
}

// -----

func.func @sync_arg_type(%a: memref<4xf32>, %e: i32) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op operand #2 must be variadic of 64-bit signless integer, but got 'i32'}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<internal>]} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) sync_related_args(%e : i32)
  return
}

// -----

func.func @internal_dup(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op duplicate user-specified sync event id on internal slot}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<internal, <EVENT_ID2>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_V>, <EVENT_ID2>>]} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

// expected-error @+1 {{macro_sync without pipes is only supported for `internal`}}
"test.x"() {s = #hivm.sync_event_slot<wait>} : () -> ()

// -----

// expected-error @+1 {{expected `wait`, `set`, `internal`, or an event attribute}}
"test.x"() {s = #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_S>, sometimes>} : () -> ()

// -----

// expected-error @+1 {{unknown attribute `pipez` in dialect `hivm`}}
"test.x"() {s = #hivm.pipez<PIPE_V>} : () -> ()

// -----

// expected-error @+1 {{expected one of}}
"test.x"() {s = #hivm.pipe<PIPE_Q>} : () -> ()

// -----

func.func @segments(%a: memref<4xf32>) {
  // expected-error @+1 {{2 operands present, but expected 1}}
  hivm.hir.custom "user.x" ins(%a, %a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @flag_without_event() {
  // expected-error @+1 {{expected '<' to begin #hivm.event}}
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, EVENT_ID0]
  return
}

// -----

func.func @bad_pipe_in_flag() {
  // expected-error @+1 {{expected one of}}
  hivm.hir.set_flag[<PIPE_X>, <PIPE_V>, <EVENT_ID0>]
  return
}

// -----

func.func @inplace_not_int(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op inplace_outs must be an integer attribute}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%a : memref<4xf32> {inplace_outs = "zero"}) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @inplace_scalar(%s: f32, %a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op inplace_outs requires mapped ins and outs operands to be ranked tensors or memrefs}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%s : f32 {inplace_outs = 0 : i32}) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @buffer_types(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Extra buffers' types must be an array of type attributes}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [1], extra_buffers_sizes = [2]} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @buffer_sizes(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Extra buffers' sizes must be an array of integer attributes}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32], extra_buffers_sizes = [f32]} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @buffer_negative(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Extra buffer size must be non-negative}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32], extra_buffers_sizes = [-4]} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @empty_symbol(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Missing implementation function name}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = ""} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @vf_conflict(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op Specified vf mode conflict with __builtin_index_select's vf mode.}}
  hivm.hir.custom {hivm.vf_mode = #hivm.vf_mode<SIMD>} "__builtin_index_select" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @result_type(%t: tensor<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom' op expected type of operand #1 (tensor<4xf32>) to match type of corresponding result (tensor<8xf32>)}}
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.x" ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @macro_in_pipe(%a: memref<4xf32>) {
  // expected-error @+1 {{'hivm.hir.custom_macro' op Missing input pipe information}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "k"} "user.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

// expected-error @+1 {{unknown attribute `target_x` in dialect `hacc`}}
"test.x"() {t = #hacc.target_x<"A">} : () -> ()

// -----

// expected-error @+1 {{expected one of}}
"test.x"() {t = #hacc.function_kind<DEVICES>} : () -> ()
