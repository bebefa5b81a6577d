// convert-hfusion-to-hivm: linalg and hfusion ops become HIVM ops, on
// tensors (results kept) and on memrefs (no results).
// RUN: hivm-opt %s --split-input-file --convert-hfusion-to-hivm | FileCheck %s

// Elementwise arithmetic keeps its operands; negf is a multiplication by -1.
// CHECK-LABEL: func.func @arith
// CHECK: %[[A:.*]] = hivm.hir.vsub ins(%arg0, %arg1 : tensor<16xf16>, tensor<16xf16>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %[[B:.*]] = hivm.hir.vln ins(%[[A]] : tensor<16xf16>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %[[M1:.*]] = arith.constant -1.000000e+00 : f16
// CHECK: %[[C:.*]] = hivm.hir.vmul ins(%[[B]], %[[M1]] : tensor<16xf16>, f16) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %[[D:.*]] = hivm.hir.vrsqrt ins(%[[C]] : tensor<16xf16>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %[[E:.*]] = hivm.hir.vmod ins(%[[D]], %arg1 : tensor<16xf16>, tensor<16xf16>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: %[[F:.*]] = hivm.hir.vmax ins(%[[E]], %arg0 : tensor<16xf16>, tensor<16xf16>) outs(%arg2 : tensor<16xf16>) -> tensor<16xf16>
// CHECK: return %[[F]]
func.func @arith(%x: tensor<16xf16>, %y: tensor<16xf16>, %o: tensor<16xf16>) -> tensor<16xf16> {
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%x, %y : tensor<16xf16>, tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  %1 = linalg.elemwise_unary {fun = #linalg.unary_fn<log>} ins(%0 : tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  %2 = linalg.elemwise_unary {fun = #linalg.unary_fn<negf>} ins(%1 : tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  %3 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>} ins(%2 : tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  %4 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<mod>} ins(%3, %y : tensor<16xf16>, tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  %5 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<maxf>} ins(%4, %x : tensor<16xf16>, tensor<16xf16>) outs(%o : tensor<16xf16>) -> tensor<16xf16>
  return %5 : tensor<16xf16>
}

// -----

// A scalar first operand: swapped into second place when the op commutes
// (vmin), broadcast into a fresh buffer when it does not (vshl, whose
// amount stays scalar), and left alone where the op takes scalars (vsub).
// On memrefs the fresh buffer is an alloc with the destination's layout.
// CHECK-LABEL: func.func @scalars
// CHECK: hivm.hir.vmin ins(%arg1, %arg0 : memref<4x8xi32>, i32) outs(%arg2 : memref<4x8xi32>)
// CHECK: %[[ALLOC:.*]] = memref.alloc() : memref<4x8xi32>
// CHECK: hivm.hir.vbrc ins(%arg0 : i32) outs(%[[ALLOC]] : memref<4x8xi32>)
// CHECK: hivm.hir.vshl ins(%[[ALLOC]], %arg0 : memref<4x8xi32>, i32) outs(%arg2 : memref<4x8xi32>)
// CHECK: hivm.hir.vsub ins(%arg1, %arg0 : memref<4x8xi32>, i32) outs(%arg2 : memref<4x8xi32>)
// CHECK: %[[S:.*]] = memref.alloc() : memref<4x8xi32, strided<[16, 1]>>
// CHECK: hivm.hir.vbrc ins(%arg0 : i32) outs(%[[S]] : memref<4x8xi32, strided<[16, 1]>>)
// CHECK: hivm.hir.vnot ins(%[[S]] : memref<4x8xi32, strided<[16, 1]>>) outs(%arg3 : memref<4x8xi32, strided<[16, 1]>>)
func.func @scalars(%s: i32, %v: memref<4x8xi32>, %d: memref<4x8xi32>, %strided: memref<4x8xi32, strided<[16, 1]>>) {
  linalg.elemwise_binary {fun = #linalg.binary_fn<min_signed>} ins(%s, %v : i32, memref<4x8xi32>) outs(%d : memref<4x8xi32>)
  hfusion.elemwise_binary {fun = #hfusion.binary_fn<shli>} ins(%s, %s : i32, i32) outs(%d : memref<4x8xi32>)
  linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%v, %s : memref<4x8xi32>, i32) outs(%d : memref<4x8xi32>)
  hfusion.elemwise_unary {fun = #hfusion.unary_fn<vnot>} ins(%s : i32) outs(%strided : memref<4x8xi32, strided<[16, 1]>>)
  return
}

// -----

// A shift amount holding one value is used as a scalar: a splat constant
// becomes its element, a one-element tensor is read.
// CHECK-LABEL: func.func @shift_amounts
// CHECK: %[[C3:.*]] = arith.constant 3 : i16
// CHECK: hivm.hir.vshr ins(%arg0, %[[C3]] : tensor<2x4xi16>, i16)
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[E:.*]] = tensor.extract %arg2[%[[Z]], %[[Z]]] : tensor<1x1xi16>
// CHECK: hivm.hir.vshl ins(%arg1, %[[E]] : tensor<1x1xi16>, i16)
func.func @shift_amounts(%x: tensor<2x4xi16>, %y: tensor<1x1xi16>, %one: tensor<1x1xi16>) -> (tensor<2x4xi16>, tensor<1x1xi16>) {
  %three = arith.constant dense<3> : tensor<2x4xi16>
  %e = tensor.empty() : tensor<2x4xi16>
  %0 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<shrsi>} ins(%x, %three : tensor<2x4xi16>, tensor<2x4xi16>) outs(%e : tensor<2x4xi16>) -> tensor<2x4xi16>
  %f = tensor.empty() : tensor<1x1xi16>
  %1 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<shli>} ins(%y, %one : tensor<1x1xi16>, tensor<1x1xi16>) outs(%f : tensor<1x1xi16>) -> tensor<1x1xi16>
  return %0, %1 : tensor<2x4xi16>, tensor<1x1xi16>
}

// -----

// Compares map their predicate (unsigned ones to the plain mode on
// memory-based targets), selects and casts keep their operands.
// CHECK-LABEL: func.func @compare_select_cast
// CHECK: %[[LT:.*]] = hivm.hir.vcmp ins(%arg0, %arg1 : tensor<8xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<8xi1>) compare_mode = <lt> -> tensor<8xi1>
// CHECK: %[[GE:.*]] = hivm.hir.vcmp ins(%arg0, %arg1 : tensor<8xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<8xi1>) compare_mode = <ge> -> tensor<8xi1>
// CHECK: %[[SEL:.*]] = hivm.hir.vsel ins(%[[LT]], %arg0, %arg1 : tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<8xi32>) -> tensor<8xi32>
// CHECK: hivm.hir.vcast ins(%[[SEL]] : tensor<8xi32>) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK: hivm.hir.vcast ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<8xi32>) round_mode = <floor> -> tensor<8xi32>
func.func @compare_select_cast(%a: tensor<8xi32>, %b: tensor<8xi32>, %f: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xf32>, tensor<8xi32>) {
  %m = tensor.empty() : tensor<8xi1>
  %lt = hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%m : tensor<8xi1>) -> tensor<8xi1>
  %ge = hfusion.compare {compare_fn = #hfusion.compare_fn<vuge>} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%m : tensor<8xi1>) -> tensor<8xi1>
  %i = tensor.empty() : tensor<8xi32>
  %sel = hfusion.select ins(%lt, %a, %b : tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
  %fe = tensor.empty() : tensor<8xf32>
  %c = hfusion.cast {round_mode = #hfusion.round_mode<rint>} ins(%sel : tensor<8xi32>) outs(%fe : tensor<8xf32>) -> tensor<8xf32>
  %t = hfusion.cast {round_mode = #hfusion.round_mode<floor>} ins(%f : tensor<8xf32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
  return %ge, %c, %t : tensor<8xi1>, tensor<8xf32>, tensor<8xi32>
}

// -----

// On register-based targets signedness is spelled out.
// CHECK-LABEL: func.func @regbase_signedness
// CHECK: hivm.hir.vcmp {{.*}} compare_mode = <gt> is_signed : false
// CHECK: hivm.hir.vdiv {{.*}} isSigned = false
// CHECK: hivm.hir.vmax {{.*}} is_signed = false
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @regbase_signedness(%a: tensor<8xi32>, %b: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) {
    %m = tensor.empty() : tensor<8xi1>
    %gt = hfusion.compare {compare_fn = #hfusion.compare_fn<vugt>} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%m : tensor<8xi1>) -> tensor<8xi1>
    %i = tensor.empty() : tensor<8xi32>
    %d = linalg.elemwise_binary {fun = #linalg.binary_fn<div_unsigned>} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
    %x = linalg.elemwise_binary {fun = #linalg.binary_fn<max_unsigned>} ins(%a, %b : tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
    return %gt, %d, %x : tensor<8xi1>, tensor<8xi32>, tensor<8xi32>
  }
}

// -----

// Fills broadcast their scalar; broadcasts get their input reshaped to the
// output's rank first (a strided memref's new unit dimension takes the
// stride of the one before it, or the first's size times its stride).
// CHECK-LABEL: func.func @fill_and_broadcast
// CHECK: %[[F:.*]] = hivm.hir.vbrc ins(%arg0 : f32) outs(%arg1 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[X:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
// CHECK: %[[B:.*]] = hivm.hir.vbrc ins(%[[X]] : tensor<1x16xf32>) outs(%[[F]] : tensor<4x16xf32>) broadcast_dims = [0] -> tensor<4x16xf32>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[DIM:.*]] = memref.dim %arg3, %[[C1]]
// CHECK: %[[Y:.*]] = memref.expand_shape %arg3 {{\[\[}}0, 1], [2, 3]] output_shape [1, 2, %[[DIM]], 1] : memref<2x?xf16, strided<[40, 2]>> into memref<1x2x?x1xf16, strided<[80, 40, 2, 2]>>
// CHECK: hivm.hir.vbrc ins(%[[Y]] : memref<1x2x?x1xf16, strided<[80, 40, 2, 2]>>) outs(%arg4 : memref<3x2x?x5xf16>) broadcast_dims = [0, 3]
// CHECK: return %[[B]]
func.func @fill_and_broadcast(%s: f32, %t: tensor<4x16xf32>, %row: tensor<16xf32>, %m: memref<2x?xf16, strided<[40, 2]>>, %big: memref<3x2x?x5xf16>) -> tensor<4x16xf32> {
  %0 = linalg.fill ins(%s : f32) outs(%t : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.broadcast ins(%row : tensor<16xf32>) outs(%0 : tensor<4x16xf32>) dimensions = [0]
  linalg.broadcast ins(%m : memref<2x?xf16, strided<[40, 2]>>) outs(%big : memref<3x2x?x5xf16>) dimensions = [0, 3]
  return %1 : tensor<4x16xf32>
}

// -----

// Reductions keep the reduced dimension as a unit: the init is expanded,
// the result collapsed back. The combiner names the reduction.
// CHECK-LABEL: func.func @reductions
// CHECK: %[[E:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [1, 12] : tensor<12xf32> into tensor<1x12xf32>
// CHECK: %[[R:.*]] = hivm.hir.vreduce <max> ins(%arg0 : tensor<5x12xf32>) outs(%[[E]] : tensor<1x12xf32>) reduce_dims = [0] -> tensor<1x12xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0, 1]] : tensor<1x12xf32> into tensor<12xf32>
// CHECK: %[[M:.*]] = memref.expand_shape %arg3 {{\[\[}}0, 1]] output_shape [5, 1] : memref<5xi8> into memref<5x1xi8>
// CHECK: hivm.hir.vreduce <ori> ins(%arg2 : memref<5x12xi8>) outs(%[[M]] : memref<5x1xi8>) reduce_dims = [1]
// CHECK: hivm.hir.vreduce <all> ins(%arg4 : memref<5x12xi1>)
// CHECK: return %[[C]]
func.func @reductions(%x: tensor<5x12xf32>, %acc: tensor<12xf32>, %b: memref<5x12xi8>, %bo: memref<5xi8>, %p: memref<5x12xi1>, %po: memref<5xi1>) -> tensor<12xf32> {
  %0 = linalg.reduce { arith.maxnumf } ins(%x : tensor<5x12xf32>) outs(%acc : tensor<12xf32>) dimensions = [0]
  linalg.reduce { arith.ori } ins(%b : memref<5x12xi8>) outs(%bo : memref<5xi8>) dimensions = [1]
  linalg.reduce { arith.andi } ins(%p : memref<5x12xi1>) outs(%po : memref<5xi1>) dimensions = [1]
  return %0 : tensor<12xf32>
}

// -----

// An arg-reduction gives both outputs; its tie-break picks the kind.
// CHECK-LABEL: func.func @arg_reduction
// CHECK: %[[R:.*]]:2 = hivm.hir.vreduce <max_with_index_right> ins(%arg0 : tensor<3x7xf16>) outs(%{{.*}}, %{{.*}} : tensor<3x1xf16>, tensor<3x1xi32>) reduce_dims = [1] -> tensor<3x1xf16>, tensor<3x1xi32>
// CHECK: tensor.collapse_shape %[[R]]#0
// CHECK: %[[I:.*]] = tensor.collapse_shape %[[R]]#1 {{\[\[}}0, 1]] : tensor<3x1xi32> into tensor<3xi32>
// CHECK: return %[[I]]
func.func @arg_reduction(%x: tensor<3x7xf16>) -> tensor<3xi32> {
  %v = tensor.empty() : tensor<3xf16>
  %i = tensor.empty() : tensor<3xi32>
  %r:2 = hfusion.reduce_with_index {tie_break_left = false} <max> ins(%x : tensor<3x7xf16>) outs(%v, %i : tensor<3xf16>, tensor<3xi32>) dimensions = [1] -> tensor<3xf16>, tensor<3xi32>
  return %r#1 : tensor<3xi32>
}

// -----

// Copies, transposes, aranges, loads and stores have HIVM twins.
// CHECK-LABEL: func.func @data
// CHECK: %[[CP:.*]] = hivm.hir.copy ins(%arg0 : tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[T:.*]] = hivm.hir.vtranspose ins(%[[CP]] : tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) permutation = [1, 0] -> tensor<4x4xf32>
// CHECK: hivm.hir.varange offset[%{{.*}}] strides[%{{.*}}] outs(%arg2 : memref<32xi32>)
// CHECK: hivm.hir.load ins(%arg3 : memref<32xi32>) outs(%arg2 : memref<32xi32>)
// CHECK: hivm.hir.store ins(%arg2 : memref<32xi32>) outs(%arg3 : memref<32xi32>) atomic = <umin>
// CHECK: hivm.hir.store ins(%arg2 : memref<32xi32>) outs(%arg3 : memref<32xi32>) atomic = <none>
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK: return %[[T]]
func.func @data(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %ub: memref<32xi32>, %gm: memref<32xi32>) -> tensor<4x4xf32> {
  %0 = linalg.copy ins(%a : tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.transpose ins(%0 : tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) permutation = [1, 0]
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  hfusion.arange offset[%c3] strides[%c2] outs(%ub : memref<32xi32>)
  hfusion.load ins(%gm : memref<32xi32>) outs(%ub : memref<32xi32>)
  hfusion.store {atomic_kind = #hfusion.atomic_kind<umin>} ins(%ub : memref<32xi32>) outs(%gm : memref<32xi32>)
  hfusion.store ins(%ub : memref<32xi32>) outs(%gm : memref<32xi32>)
  hfusion.barrier
  return %1 : tensor<4x4xf32>
}

// -----

// hfusion's annotations become HIVM's; a sub-block loop gets its mapping.
// CHECK-LABEL: func.func @annotations
// CHECK: annotation.mark %arg0 {hivm.multi_buffer = 2 : i32, hivm.stride_align_dims = [1], hivm.stride_align_value_in_byte = [64]} : memref<8x8xf32>
// CHECK: } {map_for_to_forall, mapping = [#hivm.sub_block<x>]}
func.func @annotations(%m: memref<8x8xf32>) {
  annotation.mark %m {hfusion.stride_align_value_in_byte = [64], hfusion.multi_buffer = 2 : i32, hfusion.stride_align_dims = [1]} : memref<8x8xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
  } {hfusion.bind_sub_block}
  return
}

// -----

// Gathers along the last axis and masked gathers.
// CHECK-LABEL: func.func @gathers
// CHECK: hivm.hir.vgather ins(%arg0 : tensor<4x32xf32>) indices(%arg1 : tensor<4x8xi32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: hivm.hir.vgathermask ins(%arg2 : memref<64xi8>) mask(%arg3 : memref<64xi1>) outs(%arg4, %arg5 : memref<64xi8>, memref<1xi32>)
func.func @gathers(%t: tensor<4x32xf32>, %i: tensor<4x8xi32>, %b: memref<64xi8>, %m: memref<64xi1>, %kept: memref<64xi8>, %count: memref<1xi32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = hfusion.gather ins(%t, %i : tensor<4x32xf32>, tensor<4x8xi32>) outs(%e : tensor<4x8xf32>) axis = 1 -> tensor<4x8xf32>
  hfusion.gather_mask ins(%b, %m : memref<64xi8>, memref<64xi1>) outs(%kept, %count : memref<64xi8>, memref<1xi32>)
  return %g : tensor<4x8xf32>
}

// -----

// Matmuls become the global matmul (upstream's default core_op mode).
// CHECK-LABEL: func.func @matmuls
// CHECK: %[[M:.*]] = hivm.hir.matmul ins(%arg0, %arg1 : tensor<16x32xf16>, tensor<32x8xf16>) outs(%arg2 : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK: hivm.hir.matmul ins(%arg3, %arg4 : memref<32x16xf16>, memref<32x8xf16>) outs(%arg5 : memref<16x8xf32>) a_transpose
// CHECK: hivm.hir.matmul ins(%arg7, %arg6 : memref<16x32xf16>, memref<8x32xf16>) outs(%arg5 : memref<16x8xf32>) b_transpose
func.func @matmuls(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>, %at: memref<32x16xf16>, %bm: memref<32x8xf16>, %cm: memref<16x8xf32>, %bt: memref<8x32xf16>, %am: memref<16x32xf16>) -> tensor<16x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x8xf16>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  linalg.matmul_transpose_a ins(%at, %bm : memref<32x16xf16>, memref<32x8xf16>) outs(%cm : memref<16x8xf32>)
  linalg.matmul_transpose_b ins(%am, %bt : memref<16x32xf16>, memref<8x32xf16>) outs(%cm : memref<16x8xf32>)
  return %r : tensor<16x8xf32>
}

// -----

// Ops without a destination get fresh ones: extended multiplications,
// interleaves, flips and cumulative sums.
// CHECK-LABEL: func.func @fresh_destinations
// CHECK: %[[L:.*]] = tensor.empty() : tensor<8xi32>
// CHECK: %[[H:.*]] = tensor.empty() : tensor<8xi32>
// CHECK: %{{.*}}:2 = hivm.hir.vmulextui ins(%arg0, %arg0 : tensor<8xi32>, tensor<8xi32>) outs(%[[L]], %[[H]] : tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>, tensor<8xi32>
// CHECK: hivm.hir.vinterleave ins(%arg1, %arg1 : tensor<2x4xf16>, tensor<2x4xf16>) outs(%{{.*}} : tensor<2x8xf16>) interleave_channel_nums = 2 -> tensor<2x8xf16>
// CHECK: hivm.hir.vflip ins(%arg1 : tensor<2x4xf16>) outs(%{{.*}} : tensor<2x4xf16>) flip_axis = 1 -> tensor<2x4xf16>
// CHECK: hivm.hir.vcumsum ins(%arg1 : tensor<2x4xf16>) outs(%{{.*}} : tensor<2x4xf16>) cum_dims = [1] reverse = true -> tensor<2x4xf16>
func.func @fresh_destinations(%x: tensor<8xi32>, %h: tensor<2x4xf16>) -> (tensor<8xi32>, tensor<2x8xf16>, tensor<2x4xf16>, tensor<2x4xf16>) {
  %lo, %hi = hfusion.mulextui %x, %x : tensor<8xi32>
  %i = hfusion.interleave %h, %h : tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x8xf16>
  %f = hfusion.flip %h : tensor<2x4xf16> flip_axis = 1 -> tensor<2x4xf16>
  %c = hfusion.cumsum %h : tensor<2x4xf16> cum_dims = [1] reverse = true -> tensor<2x4xf16>
  return %hi, %i, %f, %c : tensor<8xi32>, tensor<2x8xf16>, tensor<2x4xf16>, tensor<2x4xf16>
}

// -----

// Deinterleaves keep their channel, sorts their order and axis; prints and
// asserts become debug ops.
// CHECK-LABEL: func.func @channels_sorts_debug
// CHECK: hivm.hir.vdeinterleave ins(%arg0 : tensor<2x16xi8>) outs(%{{.*}} : tensor<2x8xi8>) index_mode = <CHANNEL_0> -> tensor<2x8xi8>
// CHECK: hivm.hir.vsort ins(%arg1 : tensor<16xf16>) outs(%{{.*}} : tensor<16xf16>) descending = false sort_axis = 0 -> tensor<16xf16>
// CHECK: hivm.hir.debug {debugtype = "print", hex = true, prefix = "n: "} %arg2 : i64
// CHECK: hivm.hir.debug {debugtype = "assert", hex = false, prefix = "n must be small"} %arg3 : i1
func.func @channels_sorts_debug(%a: tensor<2x16xi8>, %s: tensor<16xf16>, %n: i64, %ok: i1) -> (tensor<2x8xi8>, tensor<16xf16>) {
  %0 = hfusion.deinterleave %a channel<0> : tensor<2x16xi8> -> tensor<2x8xi8>
  %1 = hfusion.sort ins(%s : tensor<16xf16>) descending = false sort_axis = 0 -> tensor<16xf16>
  hfusion.print "n: " {hex = true} %n : i64
  hfusion.assert "n must be small" %ok : i1
  return %0, %1 : tensor<2x8xi8>, tensor<16xf16>
}

// -----

// Memory-based targets have no op for scaled matmuls: they stay.
// CHECK-LABEL: func.func @scaled_matmul_stays
// CHECK: hfusion.matmul_mx
func.func @scaled_matmul_stays(%a: tensor<4x8xf8E5M2>, %b: tensor<8x16xf8E5M2>, %sa: tensor<4x1xi8>, %sb: tensor<16x1xi8>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = hfusion.matmul_mx ins(%a, %b, %sa, %sb : tensor<4x8xf8E5M2>, tensor<8x16xf8E5M2>, tensor<4x1xi8>, tensor<16x1xi8>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Register-based targets have mmadmxL1: fp8 operands that are bitcasts of
// i8 storage in their declared format are read as the storage, transposed
// operands as their source; the accumulator is not cleared.
// CHECK-LABEL: func.func @scaled_matmuls
// CHECK: %[[NO:.*]] = arith.constant false
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: hivm.hir.mmadmxL1 {lhsFormat = 2 : i32, rhsFormat = 2 : i32} b_transpose ins(%arg0, %arg1, %arg2, %arg3, %[[NO]], %[[Z]], %[[Z]], %[[Z]] : tensor<16x32xi8>, tensor<8x32xi8>, tensor<16x1xi8>, tensor<8x1xi8>, i1, index, index, index) outs(%{{.*}} : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK: hivm.hir.mmadmxL1 {lhsFormat = 1 : i32, rhsFormat = 2 : i32} ins(%{{.*}}, %{{.*}}, %arg2, %arg3, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @scaled_matmuls(%a: tensor<16x32xi8>, %bt: tensor<8x32xi8>, %sa: tensor<16x1xi8>, %sb: tensor<8x1xi8>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %t = tensor.empty() : tensor<32x8xi8>
    %b = linalg.transpose ins(%bt : tensor<8x32xi8>) outs(%t : tensor<32x8xi8>) permutation = [1, 0]
    %ea = tensor.empty() : tensor<16x32xf8E4M3FN>
    %eb = tensor.empty() : tensor<32x8xf8E4M3FN>
    %fa = hfusion.bitcast ins(%a : tensor<16x32xi8>) outs(%ea : tensor<16x32xf8E4M3FN>) -> tensor<16x32xf8E4M3FN>
    %fb = hfusion.bitcast ins(%b : tensor<32x8xi8>) outs(%eb : tensor<32x8xf8E4M3FN>) -> tensor<32x8xf8E4M3FN>
    %acc = tensor.empty() : tensor<16x8xf32>
    %r = hfusion.matmul_mx {lhsFormat = 2 : i32, rhsFormat = 2 : i32} ins(%fa, %fb, %sa, %sb : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>, tensor<16x1xi8>, tensor<8x1xi8>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
    // lhs format 1 (e5m2) does not describe an e4m3 operand: no storage read.
    %s = hfusion.matmul_mx {lhsFormat = 1 : i32, rhsFormat = 2 : i32} ins(%fa, %fb, %sa, %sb : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>, tensor<16x1xi8>, tensor<8x1xi8>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %r, %s : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
