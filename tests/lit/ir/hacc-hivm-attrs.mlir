// HACC and HIVM attributes of upstream's kernels round-trip: host function
// kinds and references, argument indices, markers without parameters, and
// tightly coupled buffers (with and without an id); bad values are located.
// RUN: hivm-opt %s -split-input-file | hivm-opt -split-input-file | FileCheck %s

// CHECK: func.func @tiling() attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.host_func_type = #hacc.host_func_type<tiling_function>}
func.func @tiling() attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.host_func_type = #hacc.host_func_type<tiling_function>} {
  return
}

// CHECK: func.func @device(%arg0: i64 {hacc.arg_type = #hacc.arg_type<input>, hacc.input_idx = #hacc.input_idx<2>}, %arg1: memref<32xf32> {hacc.output_idx = #hacc.output_idx<0>}) attributes {hacc.rename_func = #hacc.rename_func<@"x y">, hacc.tiling_function = #hacc.tiling_function<@tiling>, marker = #hacc.dummy_func}
func.func @device(%a: i64 {hacc.arg_type = #hacc.arg_type<input>, hacc.input_idx = #hacc.input_idx<2>}, %m: memref<32xf32> {hacc.output_idx = #hacc.output_idx<0>}) attributes {hacc.tiling_function = #hacc.tiling_function<@tiling>, hacc.rename_func = #hacc.rename_func<@"x y">, marker = #hacc.dummy_func} {
  // CHECK: annotation.mark %arg1 {a = #hivm.tightly_coupled_buffer<>, b = #hivm.storage_aligned, hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<12>} : memref<32xf32>
  annotation.mark %m {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<12>, a = #hivm.tightly_coupled_buffer<>, b = #hivm.storage_aligned} : memref<32xf32>
  return
}
