// Bad HACC attribute values are located errors.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: hacc-attrs.mlir:[[@LINE+1]]:50: error: expected one of [host_entry, tiling_function, infer_output_shape_function, infer_workspace_shape_function, infer_sync_block_lock_num_function, infer_sync_block_lock_init_function, get_tiling_struct_size_function, infer_task_type_function, infer_vf_mode_function] for host_func_type, got 'nothing'
func.func @f() attributes {hacc.host_func_type = #hacc.host_func_type<nothing>} {
  return
}

// -----

// CHECK: hacc-attrs.mlir:[[@LINE+1]]:51: error: expected a symbol reference (like @f) in #hacc.tiling_function
func.func @g() attributes {hacc.tiling_function = #hacc.tiling_function<f>} {
  return
}

// -----

// CHECK: hacc-attrs.mlir:[[@LINE+1]]:40: error: expected an unsigned integer in #hacc.input_idx
func.func @h(%a: i64 {hacc.input_idx = #hacc.input_idx<-1>}) {
  return
}
