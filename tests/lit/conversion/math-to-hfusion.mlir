// convert-math-to-hfusion: each math (and mathExt) function on static tensors
// becomes its named op; fma becomes a multiply then an add unless it is kept.
// RUN: hivm-opt %s --split-input-file --convert-math-to-hfusion | FileCheck %s
// RUN: hivm-opt %s --split-input-file --convert-math-to-hfusion=enable-fma=true | FileCheck %s --check-prefix=FMA

// CHECK-LABEL: func.func @unary
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%arg0 : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<log>} ins(%[[EXP]]
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<abs>}
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<ceil>}
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<floor>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<sqrt>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<tanh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<atan>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<atanh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<tan>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<sin>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<asin>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<cos>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<acos>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<sinh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<cosh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<nearbyint>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<acosh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<asinh>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<erf>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<log2>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<log10>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<log1p>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<exp2>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<expm1>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<ilogb>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<lgamma>}
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<absi>} ins(%arg1 : tensor<2x4xi32>)
// CHECK: math.sqrt %arg2 : f32
func.func @unary(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>, %s: f32) {
  %0 = math.exp %x : tensor<2x4xf32>
  %1 = math.log %0 : tensor<2x4xf32>
  %2 = math.absf %1 : tensor<2x4xf32>
  %3 = math.ceil %2 : tensor<2x4xf32>
  %4 = math.floor %3 : tensor<2x4xf32>
  %5 = math.sqrt %4 : tensor<2x4xf32>
  %6 = math.rsqrt %5 : tensor<2x4xf32>
  %7 = math.tanh %6 : tensor<2x4xf32>
  %8 = math.atan %7 : tensor<2x4xf32>
  %9 = math.atanh %8 : tensor<2x4xf32>
  %10 = math.tan %9 : tensor<2x4xf32>
  %11 = math.sin %10 : tensor<2x4xf32>
  %12 = math.asin %11 : tensor<2x4xf32>
  %13 = math.cos %12 : tensor<2x4xf32>
  %14 = math.acos %13 : tensor<2x4xf32>
  %15 = math.sinh %14 : tensor<2x4xf32>
  %16 = math.cosh %15 : tensor<2x4xf32>
  %17 = math.roundeven %16 : tensor<2x4xf32>
  %18 = math.acosh %17 : tensor<2x4xf32>
  %19 = math.asinh %18 : tensor<2x4xf32>
  %20 = math.erf %19 : tensor<2x4xf32>
  %21 = math.log2 %20 : tensor<2x4xf32>
  %22 = math.log10 %21 : tensor<2x4xf32>
  %23 = math.log1p %22 : tensor<2x4xf32>
  %24 = math.exp2 %23 : tensor<2x4xf32>
  %25 = math.expm1 %24 : tensor<2x4xf32>
  %26 = mathExt.ilogb %25 : tensor<2x4xf32>
  %27 = mathExt.lgamma %26 : tensor<2x4xf32>
  %28 = math.absi %i : tensor<2x4xi32>
  %29 = math.sqrt %s : f32
  return
}

// -----

// CHECK-LABEL: func.func @binary
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<powf>} ins(%arg0, %arg1 : tensor<8xf16>, tensor<8xf16>)
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<atan2>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<copysign>}
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<ldexp>}
func.func @binary(%x: tensor<8xf16>, %y: tensor<8xf16>) -> tensor<8xf16> {
  %0 = math.powf %x, %y : tensor<8xf16>
  %1 = math.atan2 %0, %y : tensor<8xf16>
  %2 = math.copysign %1, %y : tensor<8xf16>
  %3 = mathExt.ldexp %2, %y : tensor<8xf16>
  return %3 : tensor<8xf16>
}

// -----

// Without a kept fma (the default, and always off a 950 target): one empty
// shaped like the first operand (dynamic sizes read with tensor.dim) serves
// the product and the sum.
// CHECK-LABEL: func.func @fma_split
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: %[[M:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%arg0, %arg1 : tensor<?xf32>, tensor<?xf32>) outs(%[[E]] : tensor<?xf32>)
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[M]], %arg2 : tensor<?xf32>, tensor<?xf32>) outs(%[[E]] : tensor<?xf32>)
// FMA-LABEL: func.func @fma_split
// FMA: linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
func.func @fma_split(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %0 = math.fma %a, %b, %c : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// On a 950 target with enable-fma, a supported fma is kept whole.
// CHECK-LABEL: func.func @fma_kept
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
// CHECK: linalg.elemwise_binary {fun = #linalg.binary_fn<add>}
// FMA-LABEL: func.func @fma_kept
// FMA: %[[E:.*]] = tensor.empty() : tensor<16xf16>
// FMA: hfusion.elemwise_ternary {fun = #hfusion.ternary_fn<fma>} ins(%arg0, %arg1, %arg2 : tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%[[E]] : tensor<16xf16>) -> tensor<16xf16>
// FMA-NOT: linalg.elemwise_binary
module attributes {hacc.target = #hacc.target<"Ascend950PR_957b">} {
  func.func @fma_kept(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf16>) -> tensor<16xf16> {
    %0 = math.fma %a, %b, %c : tensor<16xf16>
    return %0 : tensor<16xf16>
  }
}
