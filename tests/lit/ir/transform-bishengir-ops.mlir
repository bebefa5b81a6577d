// AscendNPU-IR's transform extensions and its patched upstream ops, which
// mlir-opt does not know: each prints as its TableGen (or C++) printer
// writes it, reads back unchanged, and survives the generic form.
// RUN: hivm-opt -split-input-file %s | FileCheck %s
// RUN: hivm-opt -split-input-file %s | hivm-opt -split-input-file | FileCheck %s
// RUN: hivm-opt -split-input-file --mlir-print-op-generic %s | hivm-opt -split-input-file | FileCheck %s
// RUN: hivm-opt -split-input-file --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// Function arguments and results by position; the semi-function type needs
// its parentheses.
// CHECK-LABEL: @func_values
// CHECK: %0 = transform.func.get_func_argument %arg0[1, 3] : (!transform.any_op) -> !transform.any_value
// CHECK: %1 = transform.func.get_func_argument %arg0[all] {find_reshape_consumer} : (!transform.any_op) -> !transform.any_value
// CHECK: %2 = transform.func.get_func_result %arg0[except(0)] : (!transform.any_op) -> !transform.any_value
// CHECK: %3 = transform.structured.cache_read %0 : (!transform.any_value) -> !transform.any_op
// CHECK: %4 = transform.structured.cache_write %2 {output_only = true} : (!transform.any_value) -> !transform.any_op
// CHECK: %5 = transform.structured.cache_write %2 : (!transform.any_value) -> !transform.any_op
// GENERIC-LABEL: sym_name = "func_values"
// GENERIC: "transform.func.get_func_argument"(%arg0) <{raw_position_list = array<i64: 1, 3>}>
// GENERIC: "transform.func.get_func_argument"(%arg0) <{find_reshape_consumer, is_all, raw_position_list = array<i64>}>
// GENERIC: "transform.func.get_func_result"(%arg0) <{is_inverted, raw_position_list = array<i64: 0>}>
// GENERIC: "transform.structured.cache_write"(%2) <{output_only = true}>
// GENERIC: "transform.structured.cache_write"(%2) <{cache_write_to_output_init = false}>
func.func @func_values(%f: !transform.any_op) {
  %a = transform.func.get_func_argument %f[1, 3]: (!transform.any_op) -> !transform.any_value
  %b = transform.func.get_func_argument %f[all] {find_reshape_consumer} : (!transform.any_op) -> !transform.any_value
  %c = transform.func.get_func_result %f[except(0)] : (!transform.any_op) -> !transform.any_value
  %d = transform.structured.cache_read %a : (!transform.any_value) -> !transform.any_op
  %e = transform.structured.cache_write %c {output_only = true} : (!transform.any_value) -> !transform.any_op
  %g = transform.structured.cache_write %c {cache_write_to_output_init = false} : (!transform.any_value) -> !transform.any_op
  return
}

// -----

// Buffer sizes: the unit mode is a keyword (read quoted too), the sizes and
// factor optional.
// CHECK-LABEL: @buffers
// CHECK: transform.structured.set_buffer_size %arg0, %arg1 static_buffer_sizes = [1024, 64] unit_mode = per_element reference_type = f16 : !transform.any_op, !transform.any_op
// CHECK: transform.structured.set_buffer_size %arg0 unit_mode = per_byte : !transform.any_op
// CHECK: transform.structured.multi_buffer %arg0, %arg1 : !transform.any_op, !transform.any_op
// CHECK: transform.structured.multi_buffer %arg0 factor = 4 : !transform.any_op
// GENERIC-LABEL: sym_name = "buffers"
// GENERIC: "transform.structured.set_buffer_size"(%arg0, %arg1) <{reference_type = f16, static_buffer_sizes = array<i64: 1024, 64>, unit_mode = 1 : i32}>
// GENERIC: "transform.structured.multi_buffer"(%arg0) <{factor = 4 : i32}>
func.func @buffers(%x: !transform.any_op, %y: !transform.any_op) {
  transform.structured.set_buffer_size %x, %y static_buffer_sizes = [1024, 64] unit_mode = "per_element" reference_type = f16 : !transform.any_op, !transform.any_op
  transform.structured.set_buffer_size %x unit_mode = per_byte : !transform.any_op
  transform.structured.multi_buffer %x, %y factor = 2 : !transform.any_op, !transform.any_op
  transform.structured.multi_buffer %x factor = 4 : !transform.any_op
  return
}

// -----

// Matching with optional attributes, and the ancestor of a child.
// CHECK-LABEL: @matching
// CHECK: %0 = transform.structured.match ops{["scf.for"]} attributes {a} optional_attributes {b, c} in %arg0 : (!transform.any_op) -> !transform.any_op
// CHECK: %1 = transform.structured.match.ancestor_of interface{LoopLikeInterface} optional_attributes {} in %arg0 ancestor of %0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
// CHECK: %2 = transform.reverse %1 : (!transform.any_op) -> !transform.any_op
// GENERIC-LABEL: sym_name = "matching"
// GENERIC: "transform.structured.match"(%arg0) <{op_attrs = {a}, ops = ["scf.for"], optional_op_attrs = {b, c}}>
// GENERIC: "transform.structured.match.ancestor_of"(%arg0, %0) <{interface = 2 : i32, optional_op_attrs = {}}>
func.func @matching(%root: !transform.any_op) {
  %m = transform.structured.match ops{["scf.for"]} attributes{a} optional_attributes{b, c} in %root : (!transform.any_op) -> !transform.any_op
  %n = transform.structured.match.ancestor_of interface{LoopLikeInterface} optional_attributes{} in %root ancestor of %m : (!transform.any_op, !transform.any_op) -> !transform.any_op
  %r = transform.reverse %n : (!transform.any_op) -> !transform.any_op
  return
}

// -----

// Tiling: `tile_using_for` takes value handles as sizes; the reduction
// tiling takes dynamic sizes and names its results after AscendNPU-IR's
// patch; `fuse` is LLVM 19's, sizes as array attributes.
// CHECK-LABEL: @tiling
// CHECK: %tiled_linalg_op, %loops:2 = transform.structured.tile_using_for %arg0 tile_sizes [%arg1, 4] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op)
// CHECK: %fill_op:2, %split_linalg_op, %combining_linalg_op, %for_op = transform.structured.tile_reduction_using_for %arg0 by tile_sizes = [0, %arg1] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
// CHECK: %transformed, %loops_0:2 = transform.structured.fuse %arg0 [8, 0, 4] interchange [2, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
// CHECK: %transformed_1, %loops_2 = transform.structured.fuse %arg0 [256] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
// GENERIC-LABEL: sym_name = "tiling"
// GENERIC: "transform.structured.tile_reduction_using_for"(%arg0, %arg1) <{static_tile_sizes = array<i64: 0, -9223372036854775808>}>
// GENERIC: "transform.structured.fuse"(%arg0) <{tile_interchange = [2, 0, 1], tile_sizes = [8, 0, 4]}>
// GENERIC: "transform.structured.fuse"(%arg0) <{tile_interchange = [], tile_sizes = [256]}>
func.func @tiling(%op: !transform.any_op, %size: !transform.any_value) {
  %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [%size, 4] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  %f:2, %s, %c, %for = transform.structured.tile_reduction_using_for %op by tile_sizes = [0, %size] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  %x, %xl:2 = transform.structured.fuse %op [8, 0, 4] interchange [2, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  %y, %yl = transform.structured.fuse %op {tile_interchange = [], tile_sizes = [256]} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

// Fusing into several containing ops: a fused op and a new containing op
// per containing op, counted by `resultSegmentSizes`.
// CHECK-LABEL: @extended_fuse
// CHECK: %fused_op:2, %new_containing_op:2 = transform.structured.extended_fuse_into_containing_op %arg0 into %arg1, %arg2 {duplicate_producer = true} : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
// CHECK: %fused_op_0, %new_containing_op_1 = transform.structured.extended_fuse_into_containing_op %arg0 into %arg1 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
// GENERIC-LABEL: sym_name = "extended_fuse"
// GENERIC: "transform.structured.extended_fuse_into_containing_op"(%arg0, %arg1, %arg2) <{duplicate_producer = true, resultSegmentSizes = array<i32: 2, 2>}>
func.func @extended_fuse(%p: !transform.any_op, %a: !transform.any_op, %b: !transform.any_op) {
  %f:2, %n:2 = transform.structured.extended_fuse_into_containing_op %p into %a, %b {duplicate_producer = true} : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  %g, %m = transform.structured.extended_fuse_into_containing_op %p into %a : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

// Loops: tiling (the sizes follow the handle with no space, false modes
// left out), outlining, forall conversion and HIVM's block mapping.
// CHECK-LABEL: @loops
// CHECK: %0:2 = transform.loop.tile %arg0[16] {is_npart_mode = true} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
// CHECK: %1:3 = transform.loop.tile %arg0[%arg1, 0, 8] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op)
// CHECK: %2:2 = transform.parallel_loop.tile %arg0 {static_sizes = [4, 4]} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
// CHECK: %function, %call = transform.loop.extended_outline_op %arg0, %arg2 {func_name = "vf"} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
// CHECK: transform.loop.merge_producer_extract_uses %arg0 into %arg2 : !transform.any_op into !transform.any_op
// CHECK: %3 = transform.loop.for_to_forall %arg0 {mapping = [#hivm.block]} : (!transform.any_op) -> !transform.any_op
// CHECK: %4 = transform.loop.normalize %3 : (!transform.any_op) -> !transform.any_op
// CHECK: %5 = transform.loop.fuse_nested_siblings %4 {recursive = true} : (!transform.any_op) -> !transform.any_op
// CHECK: %6 = transform.hivm.map_forall_to_blocks %3 : (!transform.any_op) -> !transform.any_op
// GENERIC-LABEL: sym_name = "loops"
// GENERIC: "transform.loop.tile"(%arg0) <{is_npart_mode = true, is_reorder_mode = false, static_sizes = array<i64: 16>}>
// GENERIC: "transform.parallel_loop.tile"(%arg0) <{static_sizes = [4, 4]}>
// GENERIC: "transform.loop.for_to_forall"(%arg0) <{annotate_only = false, mapping = [#hivm.block]}>
// GENERIC: "transform.loop.fuse_nested_siblings"({{%[0-9]+}}) <{recursive = true}>
func.func @loops(%l: !transform.any_op, %size: !transform.any_value, %m: !transform.any_op) {
  %a:2 = transform.loop.tile %l [16] {is_npart_mode = true, is_reorder_mode = false} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %b:3 = transform.loop.tile %l [%size, 0, 8] : (!transform.any_op, !transform.any_value) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  %c:2 = transform.parallel_loop.tile %l {static_sizes = [4, 4]} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %f, %call = transform.loop.extended_outline_op %l, %m {func_name = "vf"} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
  transform.loop.merge_producer_extract_uses %l into %m : !transform.any_op into !transform.any_op
  %forall = transform.loop.for_to_forall %l {mapping = [#hivm.block]} : (!transform.any_op) -> !transform.any_op
  %n = transform.loop.normalize %forall : (!transform.any_op) -> !transform.any_op
  %s = transform.loop.fuse_nested_siblings %n {recursive = true} : (!transform.any_op) -> !transform.any_op
  %blocks = transform.hivm.map_forall_to_blocks %forall : (!transform.any_op) -> !transform.any_op
  return
}

// -----

// `apply_patterns` can leave patterns out by name.
// CHECK-LABEL: @patterns
// CHECK: transform.apply_patterns to %arg0 {
// CHECK-NEXT: transform.apply_patterns.canonicalization
// CHECK-NEXT: } {apply_cse, disable_patterns = ["SimplifyTrivialLoops"]} : !transform.any_op
// GENERIC-LABEL: sym_name = "patterns"
// GENERIC: "transform.apply_patterns"(%arg0) <{apply_cse, disable_patterns = ["SimplifyTrivialLoops"], max_iterations = -1 : i64, max_num_rewrites = -1 : i64}>
func.func @patterns(%f: !transform.any_op) {
  transform.apply_patterns to %f {
    transform.apply_patterns.canonicalization
  } {apply_cse, disable_patterns = ["SimplifyTrivialLoops"]} : !transform.any_op
  return
}
