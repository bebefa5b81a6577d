// convert-linalg-to-hfusion: library calls in linalg.map, the arange generic,
// atomic generics and arg-reductions become hfusion (or linalg named) ops.
// RUN: hivm-opt %s --split-input-file --convert-linalg-to-hfusion | FileCheck %s

func.func private @__hmf_reluf(f32) -> f32
func.func private @__hmf_log1pf(f32) -> f32
func.func private @__hmf_logf(f32) -> f32
func.func private @__hmf_expf(f32) -> f32
func.func private @__hmf_fabsf(f32) -> f32
func.func private @__hmf_sqrtf(f32) -> f32
func.func private @__hmf_rsqrtf(f32) -> f32
func.func private @__hmf_tanf(f32) -> f32
func.func private @__hmf_tanhf(f32) -> f32
func.func private @__hmf_atanf(f32) -> f32
func.func private @__hmf_ilogbf(f32) -> f32
func.func private @__hmf_ldexpf(f32, f32) -> f32
func.func private @__hmf_powf(f32, f32) -> f32
func.func private @__hmf_powi(i32, i32) -> i32
// The name decides, by prefix in a fixed order: log1p before log.
// CHECK-LABEL: func.func @calls
// CHECK: %[[R:.*]] = hfusion.elemwise_unary {fun = #hfusion.unary_fn<relu>} ins(%arg0 : tensor<8xf32>) outs(%arg1 : tensor<8xf32>) -> tensor<8xf32>
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<log1p>} ins(%[[R]] : tensor<8xf32>)
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<log>}
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<exp>}
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<abs>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<sqrt>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<tan>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<tanh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<atan>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<ilogb>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<ldexp>} ins(%{{.*}}, %arg0 : tensor<8xf32>, tensor<8xf32>) outs(%arg1 : tensor<8xf32>)
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<powf>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<powi>} ins(%arg2, %arg2 : tensor<8xi32>, tensor<8xi32>)
// CHECK-NOT: linalg.map
func.func @calls(%x: tensor<8xf32>, %o: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0 = linalg.map { func.call {callee = @__hmf_reluf} } ins(%x : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %1 = linalg.map { func.call {callee = @__hmf_log1pf} } ins(%0 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %2 = linalg.map { func.call {callee = @__hmf_logf} } ins(%1 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %3 = linalg.map { func.call {callee = @__hmf_expf} } ins(%2 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %4 = linalg.map { func.call {callee = @__hmf_fabsf} } ins(%3 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %5 = linalg.map { func.call {callee = @__hmf_sqrtf} } ins(%4 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %6 = linalg.map { func.call {callee = @__hmf_rsqrtf} } ins(%5 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %7 = linalg.map { func.call {callee = @__hmf_tanf} } ins(%6 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %8 = linalg.map { func.call {callee = @__hmf_tanhf} } ins(%7 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %9 = linalg.map { func.call {callee = @__hmf_atanf} } ins(%8 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %10 = linalg.map { func.call {callee = @__hmf_ilogbf} } ins(%9 : tensor<8xf32>) outs(%o : tensor<8xf32>)
  %11 = linalg.map { func.call {callee = @__hmf_ldexpf} } ins(%10, %x : tensor<8xf32>, tensor<8xf32>) outs(%o : tensor<8xf32>)
  %12 = linalg.map { func.call {callee = @__hmf_powf} } ins(%11, %x : tensor<8xf32>, tensor<8xf32>) outs(%o : tensor<8xf32>)
  %13 = linalg.map { func.call {callee = @__hmf_powi} } ins(%i, %i : tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>)
  return %12, %13 : tensor<8xf32>, tensor<8xi32>
}

// -----

func.func private @__hmf_recipf(f32) -> f32
func.func private @__hmf_roundf(f32) -> f32
func.func private @__hmf_isinff(f32) -> i1
func.func private @__hmf_isnanf(f32) -> i1
func.func private @__hmf_flipf(f32) -> f32
// CHECK-LABEL: func.func @special
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[R:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<div>} ins(%[[F]], %arg0 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: hfusion.cast {round_mode = #hfusion.round_mode<round>} ins(%[[R]] : tensor<4x4xf32>) outs(%arg1 : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: hfusion.isinf %arg0 : tensor<4x4xf32> -> tensor<4x4xi1>
// CHECK: hfusion.isnan %arg0 : tensor<4x4xf32> -> tensor<4x4xi1>
// CHECK: hfusion.flip %arg0 : tensor<4x4xf32> flip_axis = 1 -> tensor<4x4xf32>
func.func @special(%x: tensor<4x4xf32>, %o: tensor<4x4xf32>, %m: tensor<4x4xi1>) {
  %0 = linalg.map { func.call {callee = @__hmf_recipf} } ins(%x : tensor<4x4xf32>) outs(%o : tensor<4x4xf32>)
  %1 = linalg.map { func.call {callee = @__hmf_roundf} } ins(%0 : tensor<4x4xf32>) outs(%o : tensor<4x4xf32>)
  %2 = linalg.map { func.call {callee = @__hmf_isinff} } ins(%x : tensor<4x4xf32>) outs(%m : tensor<4x4xi1>)
  %3 = linalg.map { func.call {callee = @__hmf_isnanf} } ins(%x : tensor<4x4xf32>) outs(%m : tensor<4x4xi1>)
  %4 = linalg.map { func.call {callee = @__hmf_flipf} } ins(%x : tensor<4x4xf32>) outs(%o : tensor<4x4xf32>)
  return
}

// -----

// On a register-based target rint and round are casts in place, saturating.
// CHECK-LABEL: func.func @rint_regbase
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, enable_overflow = true, enable_saturate = true, round_mode = #hfusion.round_mode<rint>, unsigned_mode = #hfusion.unsigned_mode<si2si>} ins(%arg0 : tensor<8xf32>) outs(%arg0 : tensor<8xf32>) -> tensor<8xf32>
module attributes {hacc.target = #hacc.target<"Ascend950PR_957b">} {
  func.func private @__hmf_rintf(f32) -> f32
  func.func @rint_regbase(%x: tensor<8xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
    %0 = linalg.map { func.call {callee = @__hmf_rintf} } ins(%x : tensor<8xf32>) outs(%o : tensor<8xf32>)
    return %0 : tensor<8xf32>
  }
}

// -----

// The index fill triton-to-linalg makes for tt.make_range used as data.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @arange
// CHECK: %[[E:.*]] = tensor.empty() : tensor<32xi32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = hfusion.arange offset[%[[ZERO]]] strides[%[[ONE]]] outs(%[[E]] : tensor<32xi32>) -> tensor<32xi32>
// CHECK-NEXT: return %[[A]]
func.func @arange() -> tensor<32xi32> {
  %e = tensor.empty() : tensor<32xi32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<32xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<32xi32>
  return %r : tensor<32xi32>
}

// -----

// Atomic read-modify-writes of global memory: the kind is the marker's end.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @atomics
// CHECK: hfusion.atomic_rmw ins(%arg1 : memref<16xi32>) outs(%arg0 : memref<16xi32>) atomic_kind = <and>
// CHECK: hfusion.atomic_rmw ins(%arg1 : memref<16xi32>) outs(%arg0 : memref<16xi32>) atomic_kind = <xor>
// CHECK: hfusion.atomic_rmw ins(%arg1 : memref<16xi32>) outs(%arg0 : memref<16xi32>) atomic_kind = <or>
// CHECK: hfusion.atomic_rmw ins(%arg1 : memref<16xi32>) outs(%arg0 : memref<16xi32>) atomic_kind = <max>
// CHECK: hfusion.atomic_rmw ins(%arg1 : memref<16xi32>) outs(%arg0 : memref<16xi32>) atomic_kind = <umin>
// CHECK: hfusion.atomic_cas ins(%arg1, %arg2 : memref<16xi32>, memref<16xi32>) outs(%arg0 : memref<16xi32>)
// CHECK: hfusion.atomic_xchg ins(%arg2 : memref<16xi32>) outs(%arg0 : memref<16xi32>)
// CHECK-NOT: linalg.generic
func.func @atomics(%dst: memref<16xi32>, %v: memref<16xi32>, %w: memref<16xi32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "and"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.andi %a, %b : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "xor"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.xori %a, %b : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "or"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.ori %a, %b : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "imax"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.maxsi %a, %b : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "umin"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.minui %a, %b : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v, %w : memref<16xi32>, memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "cas"} {
  ^bb0(%a: i32, %b: i32, %c: i32, %o: i32):
    %eq = arith.cmpi eq, %a, %b : i32
    %r = arith.select %eq, %c, %a : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %w : memref<16xi32>, memref<16xi32>) outs(%dst : memref<16xi32>) attrs = {GenericAtomicRMW = "exch"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    linalg.yield %b : i32
  }
  return
}

// -----

// Arg-reductions: unsigned when the body compares unsigned; the index input
// kept only when an annotation anywhere marks it as used.
// CHECK-LABEL: func.func @argmin
// CHECK: %[[R:[0-9]+]]:2 = hfusion.reduce_with_index {tie_break_left = false} <minui> ins(%arg0 : tensor<4x16xi16>)
// CHECK-SAME: outs(%arg2, %arg3 : tensor<4xi16>, tensor<4xi32>) dimensions = [1]
// CHECK-SAME: -> tensor<4xi16>, tensor<4xi32>
// CHECK: annotation.mark %arg1 {UseIndexInput}
// CHECK: hfusion.reduce_with_index {tie_break_left = true} <max> ins(%arg0, %arg1 : tensor<4x16xi16>, tensor<4x16xi32>) outs(%arg2, %arg3 : tensor<4xi16>, tensor<4xi32>) dimensions = [1]
// CHECK: return %[[R]]#1
func.func @argmin(%v: tensor<4x16xi16>, %i: tensor<4x16xi32>, %bv: tensor<4xi16>, %bi: tensor<4xi32>, %j: tensor<4x16xi32>) -> tensor<4xi32> {
  %r:2 = linalg.reduce ins(%v, %j : tensor<4x16xi16>, tensor<4x16xi32>) outs(%bv, %bi : tensor<4xi16>, tensor<4xi32>) dimensions = [1] {reduce_mode = "min_with_index", tie_break_left = "false"}
    (%a: i16, %ai: i32, %b: i16, %bi2: i32) {
      %lt = arith.cmpi ult, %a, %b : i16
      %x = arith.select %lt, %a, %b : i16
      %y = arith.select %lt, %ai, %bi2 : i32
      linalg.yield %x, %y : i16, i32
    }
  annotation.mark %i {UseIndexInput} : tensor<4x16xi32>
  %s:2 = linalg.reduce ins(%v, %i : tensor<4x16xi16>, tensor<4x16xi32>) outs(%bv, %bi : tensor<4xi16>, tensor<4xi32>) dimensions = [1] {reduce_mode = "max_with_index", tie_break_left = "true"}
    (%a: i16, %ai: i32, %b: i16, %bi2: i32) {
      %gt = arith.cmpi sgt, %a, %b : i16
      %x = arith.select %gt, %a, %b : i16
      %y = arith.select %gt, %ai, %bi2 : i32
      linalg.yield %x, %y : i16, i32
    }
  return %r#1 : tensor<4xi32>
}

// -----

// On a register-based target an atomic add is a store of that kind.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @atomic_regbase
// CHECK: hfusion.store {atomic_kind = #hfusion.atomic_kind<add>} ins(%arg1 : memref<16xf32>) outs(%arg0 : memref<16xf32>)
// CHECK-NOT: linalg.generic
module attributes {hacc.target = #hacc.target<"Ascend950PR_957b">} {
  func.func @atomic_regbase(%dst: memref<16xf32>, %v: memref<16xf32>) {
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%dst, %v : memref<16xf32>, memref<16xf32>) outs(%dst : memref<16xf32>) attrs = {GenericAtomicRMW = "fadd"} {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    }
    return
  }
}
