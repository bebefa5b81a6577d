// convert-arith-to-hfusion: each arith op on static tensors becomes its named
// elementwise op on a new tensor.empty; scalars, mixed scalar/tensor operands
// and non-splat constants are left alone.
// RUN: hivm-opt %s --split-input-file --convert-arith-to-hfusion | FileCheck %s

// CHECK-LABEL: func.func @linalg_names
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[ADD:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E0]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%[[ADD]], %arg1
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<div>}
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<negf>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%arg2, %arg3 : tensor<4x8xi16>
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} {{.*}} tensor<4x8xi16>
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} {{.*}} tensor<4x8xi16>
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<div>} {{.*}} tensor<4x8xi16>
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<div_unsigned>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<max_signed>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<max_unsigned>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<min_signed>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<min_unsigned>}
// CHECK-NOT: arith.
// CHECK: return
func.func @linalg_names(%f: tensor<4x8xf32>, %g: tensor<4x8xf32>, %i: tensor<4x8xi16>, %j: tensor<4x8xi16>) -> (tensor<4x8xf32>, tensor<4x8xi16>) {
  %0 = arith.addf %f, %g : tensor<4x8xf32>
  %1 = arith.subf %0, %g : tensor<4x8xf32>
  %2 = arith.mulf %1, %g : tensor<4x8xf32>
  %3 = arith.divf %2, %g : tensor<4x8xf32>
  %4 = arith.negf %3 : tensor<4x8xf32>
  %5 = arith.addi %i, %j : tensor<4x8xi16>
  %6 = arith.subi %5, %j : tensor<4x8xi16>
  %7 = arith.muli %6, %j : tensor<4x8xi16>
  %8 = arith.divsi %7, %j : tensor<4x8xi16>
  %9 = arith.divui %8, %j : tensor<4x8xi16>
  %10 = arith.maxsi %9, %j : tensor<4x8xi16>
  %11 = arith.maxui %10, %j : tensor<4x8xi16>
  %12 = arith.minsi %11, %j : tensor<4x8xi16>
  %13 = arith.minui %12, %j : tensor<4x8xi16>
  return %4, %13 : tensor<4x8xf32>, tensor<4x8xi16>
}

// -----

// CHECK-LABEL: func.func @hfusion_names
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<vand>} ins(%arg0, %arg1 : tensor<16xi32>, tensor<16xi32>)
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<vor>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<vxor>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<mod>} {{.*}} tensor<16xi32>
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<modui>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<shli>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<shrsi>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<shrui>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<floordivsi>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<ceildivsi>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<ceildivui>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<minnumf>} ins(%arg2, %arg3 : tensor<16xf16>, tensor<16xf16>)
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<minf>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<maxnumf>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<maxf>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<mod>} {{.*}} tensor<16xf16>
// CHECK: %low, %high = hfusion.mulext %arg0, %arg1 : tensor<16xi32>
// CHECK: %low_0, %high_1 = hfusion.mulextui %arg0, %arg1 : tensor<16xi32>
func.func @hfusion_names(%a: tensor<16xi32>, %b: tensor<16xi32>, %x: tensor<16xf16>, %y: tensor<16xf16>) -> (tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<16xi32>) {
  %0 = arith.andi %a, %b : tensor<16xi32>
  %1 = arith.ori %0, %b : tensor<16xi32>
  %2 = arith.xori %1, %b : tensor<16xi32>
  %3 = arith.remsi %2, %b : tensor<16xi32>
  %4 = arith.remui %3, %b : tensor<16xi32>
  %5 = arith.shli %4, %b : tensor<16xi32>
  %6 = arith.shrsi %5, %b : tensor<16xi32>
  %7 = arith.shrui %6, %b : tensor<16xi32>
  %8 = arith.floordivsi %7, %b : tensor<16xi32>
  %9 = arith.ceildivsi %8, %b : tensor<16xi32>
  %10 = arith.ceildivui %9, %b : tensor<16xi32>
  %11 = arith.minnumf %x, %y : tensor<16xf16>
  %12 = arith.minimumf %11, %y : tensor<16xf16>
  %13 = arith.maxnumf %12, %y : tensor<16xf16>
  %14 = arith.maximumf %13, %y : tensor<16xf16>
  %15 = arith.remf %14, %y : tensor<16xf16>
  %lo, %hi = arith.mulsi_extended %a, %b : tensor<16xi32>
  %ulo, %uhi = arith.mului_extended %a, %b : tensor<16xi32>
  return %10, %15, %hi, %uhi : tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<16xi32>
}

// -----

// Rounding modes and signedness of the conversions.
// CHECK-LABEL: func.func @casts
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf16>
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg0 : tensor<8xf32>) outs(%[[E]] : tensor<8xf16>) -> tensor<8xf16>
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%{{.*}} : tensor<8xbf16>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<trunc>} ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<truncwithoverflow>} ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<8xi8>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_unsigned>, round_mode = #hfusion.round_mode<trunc>} ins(%{{.*}} : tensor<8xf16>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg1 : tensor<8xi32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_unsigned>, round_mode = #hfusion.round_mode<rint>} ins(%arg1 : tensor<8xi32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg1 : tensor<8xi32>) outs(%{{.*}} : tensor<8xi64>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_unsigned>, round_mode = #hfusion.round_mode<rint>} ins(%arg2 : tensor<8xi8>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg3 : tensor<8xi1>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<truncwithoverflow>} ins(%arg1 : tensor<8xi32>) outs(%{{.*}} : tensor<8xi16>)
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg1 : tensor<8xi32>) outs(%{{.*}} : tensor<8xi1>)
// CHECK: %[[BE:.*]] = tensor.empty() : tensor<8xi32>
// CHECK: hfusion.bitcast ins(%arg0 : tensor<8xf32>) outs(%[[BE]] : tensor<8xi32>) -> tensor<8xi32>
func.func @casts(%f: tensor<8xf32>, %i: tensor<8xi32>, %b: tensor<8xi8>, %p: tensor<8xi1>, %bf: tensor<8xbf16>) {
  %0 = arith.truncf %f : tensor<8xf32> to tensor<8xf16>
  %1 = arith.extf %bf : tensor<8xbf16> to tensor<8xf32>
  %2 = arith.fptosi %f : tensor<8xf32> to tensor<8xi32>
  %3 = arith.fptosi %f : tensor<8xf32> to tensor<8xi8>
  %4 = arith.fptoui %0 : tensor<8xf16> to tensor<8xi32>
  %5 = arith.sitofp %i : tensor<8xi32> to tensor<8xf32>
  %6 = arith.uitofp %i : tensor<8xi32> to tensor<8xf32>
  %7 = arith.extsi %i : tensor<8xi32> to tensor<8xi64>
  %8 = arith.extui %b : tensor<8xi8> to tensor<8xi32>
  %9 = arith.extui %p : tensor<8xi1> to tensor<8xi32>
  %10 = arith.trunci %i : tensor<8xi32> to tensor<8xi16>
  %11 = arith.trunci %i : tensor<8xi32> to tensor<8xi1>
  %12 = arith.bitcast %f : tensor<8xf32> to tensor<8xi32>
  return
}

// -----

// Both orderings of a float compare give the same function; select.
// CHECK-LABEL: func.func @compare_select
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xi1>
// CHECK: %[[LT:.*]] = hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%arg0, %arg1 : tensor<8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<8xi1>) -> tensor<8xi1>
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%arg0, %arg1
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<vne>}
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<vuge>} ins(%arg2, %arg3 : tensor<8xi32>, tensor<8xi32>)
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<vgt>} ins(%arg2, %arg3
// CHECK: %[[SE:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: hfusion.select ins(%[[LT]], %arg0, %arg1 : tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) outs(%[[SE]] : tensor<8xf32>) -> tensor<8xf32>
func.func @compare_select(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<8xi32>, %j: tensor<8xi32>) -> tensor<8xf32> {
  %0 = arith.cmpf olt, %x, %y : tensor<8xf32>
  %1 = arith.cmpf ult, %x, %y : tensor<8xf32>
  %2 = arith.cmpf one, %x, %y : tensor<8xf32>
  %3 = arith.cmpi uge, %i, %j : tensor<8xi32>
  %4 = arith.cmpi sgt, %i, %j : tensor<8xi32>
  %5 = arith.select %0, %x, %y : tensor<8xi1>, tensor<8xf32>
  return %5 : tensor<8xf32>
}

// -----

// A splat constant becomes a fill (dead or not: nothing is erased), a
// non-splat one stays; scalar arith and a select on a scalar condition
// are not elementwise ops on tensors.
// CHECK-LABEL: func.func @constants_and_scalars
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xi32>
// CHECK: %[[C:.*]] = arith.constant 7 : i32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[C]] : i32) outs(%[[E]] : tensor<4x4xi32>) -> tensor<4x4xi32>
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: tensor.empty() : tensor<3xf16>
// CHECK: arith.constant 5.000000e-01 : f16
// CHECK: linalg.fill
// CHECK: arith.addi %arg0, %arg0 : i32
// CHECK: arith.select %arg1, %[[F]], %[[F]] : tensor<4x4xi32>
func.func @constants_and_scalars(%s: i32, %c: i1) -> (tensor<4x4xi32>, tensor<2xf32>, i32) {
  %0 = arith.constant dense<7> : tensor<4x4xi32>
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant dense<0.5> : tensor<3xf16>
  %3 = arith.addi %s, %s : i32
  %4 = arith.select %c, %0, %0 : tensor<4x4xi32>
  return %4, %1, %3 : tensor<4x4xi32>, tensor<2xf32>, i32
}

// -----

// On a register-based target, extui from i1 is unsigned, and an ordering
// compare of i1 compares the operands widened to i8.
// CHECK-LABEL: func.func @regbase
// CHECK: hfusion.cast {cast = #hfusion.type_fn<cast_unsigned>, round_mode = #hfusion.round_mode<rint>} ins(%arg0 : tensor<8xi1>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xi1>
// CHECK: %[[L:.*]] = hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg0 : tensor<8xi1>) outs(%{{.*}} : tensor<8xi8>)
// CHECK: %[[R:.*]] = hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<rint>} ins(%arg1 : tensor<8xi1>) outs(%{{.*}} : tensor<8xi8>)
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<vge>} ins(%[[L]], %[[R]] : tensor<8xi8>, tensor<8xi8>) outs(%[[E]] : tensor<8xi1>)
// CHECK: hfusion.compare {compare_fn = #hfusion.compare_fn<veq>} ins(%arg0, %arg1 : tensor<8xi1>, tensor<8xi1>)
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @regbase(%p: tensor<8xi1>, %q: tensor<8xi1>) {
    %0 = arith.extui %p : tensor<8xi1> to tensor<8xi32>
    %1 = arith.cmpi uge, %p, %q : tensor<8xi1>
    %2 = arith.cmpi eq, %p, %q : tensor<8xi1>
    return
  }
}
