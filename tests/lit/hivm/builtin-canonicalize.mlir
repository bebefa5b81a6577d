// RUN: hivm-opt %s -canonicalize | FileCheck %s

// Builtins get their table's core type, pipe, vf mode and GM address operands.
// CHECK-LABEL: func.func @builtins
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32: 0>, hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMT>} "__builtin_gather_load"
// CHECK: hivm.hir.custom {gm_addr_args_indices = array<i32>, hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMT>} "__builtin_histogram"
// User ops are untouched.
// CHECK: hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "k"} "user.op"
func.func @builtins(%a: memref<16xf32>, %b: memref<16xi32>, %n: i64) {
  hivm.hir.custom "__builtin_gather_load" ins(%a : memref<16xf32>) outs(%a : memref<16xf32>)
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>} "__builtin_histogram" ins(%b, %n : memref<16xi32>, i64) outs(%b : memref<16xi32>)
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "k"} "user.op" ins(%a : memref<16xf32>) outs(%a : memref<16xf32>)
  return
}
