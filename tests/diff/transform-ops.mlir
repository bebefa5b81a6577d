// The transform dialect as mlir-opt 22 prints it: named sequences (with
// argument and result attributes, declarations), sequences with and without
// a root (the implicit yield left out, ops of the dialect written without
// their prefix), foreach, and the core, Linalg, SCF and debug ops with their
// handle and parameter types.
module attributes {transform.with_named_sequence} {
  transform.named_sequence private @helper(%h: !transform.any_op {transform.readonly}) -> (!transform.any_op {transform.readonly}, !transform.any_value) attributes {note} {
    %v = transform.get_result %h[0] : (!transform.any_op) -> !transform.any_value
    transform.yield %h, %v : !transform.any_op, !transform.any_value
  }
  transform.named_sequence @empty() {
    transform.yield
  }
  transform.named_sequence @external(!transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}, %n: !transform.param<i64>) -> (!transform.any_op) {
    %mm = transform.structured.match ops{["linalg.matmul", "linalg.fill"]} interface{LinalgOp} attributes {tag, rank = 2 : i64} filter_result_type = f32 filter_operand_types = [f32, f32] in %root : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match interface{LoopLikeInterface} in %root : (!transform.any_op) -> !transform.any_op
    %fors = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
    %first, %second = transform.split_handle %mm : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %in = transform.get_operand %first[0, 2] : (!transform.any_op) -> !transform.any_value
    %all = transform.get_operand %first[all] : (!transform.any_op) -> !transform.any_value
    %rest = transform.get_result %first[except(0)] : (!transform.any_op) -> !transform.any_value
    %fn = transform.get_parent_op %first {isolated_from_above, op_name = "func.func", deduplicate} : (!transform.any_op) -> !transform.any_op
    %grand = transform.get_parent_op %first {nth_parent = 2 : i64} : (!transform.any_op) -> !transform.any_op
    transform.annotate %first "marked" : !transform.any_op
    transform.annotate %first "sized" = %n : !transform.any_op, !transform.param<i64>
    transform.apply_patterns to %fn {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
      transform.apply_patterns.memref.alloc_to_alloca size_limit(64)
      transform.apply_patterns.tensor.fold_tensor_empty {fold_single_use_only = true}
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 2 full_unroll = true
    } {apply_cse} : !transform.any_op
    transform.apply_patterns to %fn {
    } {max_iterations = 4 : i64} : !transform.any_op
    transform.apply_cse to %fn : !transform.any_op
    transform.apply_licm to %fors : !transform.op<"scf.for">
    transform.foreach %mm, %fors : !transform.any_op, !transform.op<"scf.for"> {
    ^bb0(%a: !transform.any_op, %b: !transform.op<"scf.for">):
      transform.debug.emit_remark_at %a, "each" : !transform.any_op
    }
    %outs:2 = transform.foreach %mm with_zip_shortest : !transform.any_op -> !transform.any_op, !transform.any_value {
    ^bb0(%a: !transform.any_op):
      %r = transform.get_result %a[0] : (!transform.any_op) -> !transform.any_value
      transform.yield %a, %r : !transform.any_op, !transform.any_value
    }
    %h:2 = transform.include @helper failures(propagate) (%first) : (!transform.any_op) -> (!transform.any_op, !transform.any_value)
    %p = transform.param.constant 16 : i64 -> !transform.param<i64>
    %merged = transform.merge_handles deduplicate %first, %second : !transform.any_op
    transform.debug.emit_remark_at %in, "an operand" : !transform.any_value
    transform.debug.emit_param_as_remark %p, "size" at %first : !transform.param<i64>, !transform.any_op
    transform.print %first {name = "first"} : !transform.any_op
    transform.yield %merged : !transform.any_op
  }

  transform.sequence failures(propagate) attributes {transform.target_tag = "top"} {
  ^bb0(%arg0: !transform.any_op):
    %m = transform.structured.match ops{["scf.for"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %s = transform.sequence %m : !transform.any_op -> !transform.any_op failures(suppress) {
    ^bb1(%inner: !transform.any_op):
      transform.yield %inner : !transform.any_op
    }
    transform.sequence %m, %s : (!transform.any_op, !transform.any_op) failures(propagate) {
    ^bb1(%x: !transform.any_op, %y: !transform.any_op):
      transform.print
    }
    transform.test_consume_operand %s : !transform.any_op
  }
}

// Every op here consumes or produces handles freely: in a function, no
// transform sequence checks how handles are used.
func.func @handles(%op: !transform.any_op, %other: !transform.any_op, %for: !transform.op<"scf.for">, %p: !transform.param<i64>, %v: !transform.any_value) {
  %t, %l:3 = transform.structured.tile_using_for %op tile_sizes [%p, [4], 0, 8] interchange = [1, 0, 2, 3] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  %t2, %l2 = transform.structured.tile_using_for %op tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %t3, %f3 = transform.structured.tile_using_forall %op tile_sizes [32, %p] (mapping = [#gpu.block<x>, #gpu.block<y>]) : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
  %t4, %f4 = transform.structured.tile_using_forall %op num_threads *(%p) : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
  %t5, %f5 = transform.structured.tile_using_forall %op num_threads [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %fused, %loop = transform.structured.fuse_into_containing_op %op into %f5 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
  transform.structured.vectorize %t vector_sizes [64, [8]] : !transform.any_op
  transform.structured.vectorize %t vector_sizes [%p, 4] {vectorize_nd_extract} : !transform.any_op, !transform.param<i64>
  transform.structured.vectorize %t : !transform.any_op
  %lowered = transform.structured.convert_to_loops %t : (!transform.any_op) -> !transform.any_op
  %g = transform.structured.generalize %op : (!transform.any_op) -> !transform.any_op
  %sp = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
  %i = transform.structured.interchange %g iterator_interchange = [1, 0] : (!transform.any_op) -> !transform.any_op
  %d = transform.structured.decompose %op : (!transform.any_op) -> !transform.any_op
  %fl = transform.structured.flatten_elementwise %op : (!transform.any_op) -> !transform.any_op
  transform.structured.eliminate_empty_tensors %op : !transform.any_op
  %hv = transform.structured.hoist_redundant_vector_transfers %op {verify_non_zero_trip} : (!transform.any_op) -> !transform.any_op
  %vc = transform.structured.vectorize_children_and_apply_patterns %op {vectorize_padding} : (!transform.any_op) -> !transform.any_op
  %fs = transform.loop.fuse_sibling %op into %other : (!transform.any_op, !transform.any_op) -> !transform.any_op
  %c = transform.loop.coalesce %fs : (!transform.any_op) -> !transform.any_op
  %fn, %call = transform.loop.outline %op {func_name = "outlined"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %peeled, %remainder = transform.loop.peel %for {peel_front = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
  %pl = transform.loop.pipeline %for {iteration_interval = 2 : i64} : (!transform.op<"scf.for">) -> !transform.any_op
  %seq = transform.loop.forall_to_for %op : (!transform.any_op) -> !transform.any_op
  %par:2 = transform.loop.forall_to_parallel %op : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  %nest = transform.loop.parallel_for_to_nested_fors %op : (!transform.any_op) -> !transform.any_op
  transform.loop.promote_if_one_iteration %op : !transform.any_op
  transform.loop.unroll %op {factor = 4} : !transform.any_op
  transform.loop.unroll_and_jam %op {factor = 2} : !transform.any_op
  transform.loop.hoist_loop_invariant_subsets %op : !transform.any_op
  transform.scf.take_assumed_branch %op take_else_branch : (!transform.any_op) -> ()
  %rp = transform.apply_registered_pass "canonicalize" to %op : (!transform.any_op) -> !transform.any_op
  %ro = transform.apply_registered_pass "canonicalize" with options = {"top-down" = false, "max-iterations" = %p} to %op : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
  %users = transform.get_consumers_of_result %op[0] : (!transform.any_op) -> !transform.any_op
  %def = transform.get_defining_op %v : (!transform.any_value) -> !transform.any_op
  %prod = transform.get_producer_of_operand %op[1] : (!transform.any_op) -> !transform.any_op
  %ty = transform.get_type elemental %v : (!transform.any_value) -> !transform.type
  %count = transform.num_associations %op : (!transform.any_op) -> !transform.param<i64>
  %sel = transform.select "scf.for" in %op : (!transform.any_op) -> !transform.any_op
  %parts:3 = transform.split_handle %op {overflow_result = 2 : i64, pass_through_empty_handle = false} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.match.operation_name %op ["scf.for", "scf.forall"] : !transform.any_op
  transform.verify %op : !transform.any_op
  transform.apply_dce to %op : !transform.any_op
  transform.test_consume_operand %op, %other {allow_repeated_handles} : !transform.any_op, !transform.any_op
  return
}
