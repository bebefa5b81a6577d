// hfusion's ops print as upstream's printers write them (attribute
// dictionary first, `-> T` only with tensor inits, reduce_with_index's
// trailing spaces), and the elementwise ops carry the bodies upstream's
// region builders make.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// The generic form (bodies included) reads back to the same custom form.
// (mlir-opt 22 cannot check it: it rejects linalg.yield under ops it does
// not know, and linalg.elemwise_* left MLIR after upstream's LLVM 19.)
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK-LABEL: func.func @named
// CHECK: %1 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>} ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK: hfusion.select ins(%arg2, %arg3, %arg3 : memref<4xi1>, memref<4xi32>, memref<4xi32>) outs(%arg3 : memref<4xi32>){{$}}
// CHECK: %3 = hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%arg1, %arg1 : tensor<4xi8>, tensor<4xi8>) outs(%2 : tensor<4xi1>) -> tensor<4xi1>
// GEN-LABEL: sym_name = "named"
// GEN: "hfusion.elemwise_unary"(%{{.*}}) <{fun = #hfusion.unary_fn<rsqrt>, operandSegmentSizes = array<i32: 1, 1>}> ({
// GEN: "math.rsqrt"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
// GEN: "hfusion.compare"
// GEN: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 2 : i64}> : (i8, i8) -> i1
// GEN: "hfusion.cast"
// GEN: "arith.truncf"(%{{.*}}) {round_mode = #hfusion.round_mode<floor>} : (f32) -> f16
func.func @named(%x: tensor<4xf32>, %i: tensor<4xi8>, %c: memref<4xi1>, %m: memref<4xi32>) -> tensor<4xf16> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<rsqrt>} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  hfusion.select ins(%c, %m, %m : memref<4xi1>, memref<4xi32>, memref<4xi32>) outs(%m : memref<4xi32>)
  %b = tensor.empty() : tensor<4xi1>
  %1 = hfusion.compare {compare_fn  = #hfusion.compare_fn<vlt>} ins(%i, %i : tensor<4xi8>, tensor<4xi8>) outs(%b : tensor<4xi1>) -> tensor<4xi1>
  %h = tensor.empty() : tensor<4xf16>
  %2 = hfusion.cast {round_mode = #hfusion.round_mode<floor>} ins(%0 : tensor<4xf32>) outs(%h : tensor<4xf16>) -> tensor<4xf16>
  return %2 : tensor<4xf16>
}

// CHECK-LABEL: func.func @shaped
// CHECK: hfusion.interleave %arg0, %arg0 : tensor<2x8xi8>, tensor<2x8xi8> -> tensor<2x16xi8>
// CHECK: hfusion.deinterleave %arg0 channel<all> : tensor<2x8xi8> -> tensor<2x4xi8>
// CHECK: hfusion.cumsum %arg1 : tensor<4x64xf16> cum_dims = [1] reverse = false -> tensor<4x64xf16>
// CHECK: hfusion.reduce_with_index {tie_break_left = true} <min> ins(%arg2 : tensor<4x64xf32>) outs(%3, %4 : tensor<4xf32>, tensor<4xi32>) dimensions = [1]  -> tensor<4xf32>, tensor<4xi32>
// CHECK: hfusion.reduce_with_index <max> ins(%arg3, %arg4 : memref<4x64xf32>, memref<4x64xi32>) outs(%arg5, %arg6 : memref<4xf32>, memref<4xi32>) dimensions = [1] {{$}}
// CHECK: hfusion.gather ins(%arg2, %arg7 : tensor<4x64xf32>, tensor<4x8xi64>) outs(%6 : tensor<4x8xf32>) axis = 1 -> tensor<4x8xf32>
// GEN-LABEL: sym_name = "shaped"
// GEN: "hfusion.reduce_with_index"
// GEN-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i32):
// GEN-NEXT: "arith.minimumf"
// GEN-NEXT: "arith.cmpf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}>
// GEN-NEXT: "linalg.index"() <{dim = 1 : i64}> : () -> index
// GEN-NEXT: "arith.index_cast"(%{{.*}}) : (index) -> i32
// GEN-NEXT: "arith.select"
// GEN: "hfusion.gather"
// GEN-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i64, %{{.*}}: f32):
// GEN-NEXT: "linalg.index"() <{dim = 2 : i64}> : () -> index
// GEN-NEXT: "arith.index_cast"(%{{.*}}) : (index) -> i64
// GEN-NEXT: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 0 : i64}>
func.func @shaped(%a: tensor<2x8xi8>, %c: tensor<4x64xf16>, %r: tensor<4x64xf32>, %mr: memref<4x64xf32>, %mi: memref<4x64xi32>, %ov: memref<4xf32>, %oi: memref<4xi32>, %idx: tensor<4x8xi64>) {
  %0 = hfusion.interleave %a, %a : tensor<2x8xi8>, tensor<2x8xi8> -> tensor<2x16xi8>
  %1 = hfusion.deinterleave %a channel<all> : tensor<2x8xi8> -> tensor<2x4xi8>
  %2 = hfusion.cumsum %c : tensor<4x64xf16> cum_dims = [1] reverse = false -> tensor<4x64xf16>
  %v = tensor.empty() : tensor<4xf32>
  %i = tensor.empty() : tensor<4xi32>
  %3:2 = hfusion.reduce_with_index {tie_break_left = true} <min> ins(%r : tensor<4x64xf32>) outs(%v, %i : tensor<4xf32>, tensor<4xi32>) dimensions = [1] -> tensor<4xf32>, tensor<4xi32>
  hfusion.reduce_with_index <max> ins(%mr, %mi : memref<4x64xf32>, memref<4x64xi32>) outs(%ov, %oi : memref<4xf32>, memref<4xi32>) dimensions = [1]
  %g = tensor.empty() : tensor<4x8xf32>
  %4 = hfusion.gather ins(%r, %idx : tensor<4x64xf32>, tensor<4x8xi64>) outs(%g : tensor<4x8xf32>) axis = 1 -> tensor<4x8xf32>
  return
}

// GEN-LABEL: sym_name = "bodies"
// GEN: "hfusion.elemwise_unary"
// GEN: "arith.constant"() <{value = 0 : i32}> : () -> i32
// GEN-NEXT: "arith.maxsi"
// GEN: "hfusion.elemwise_unary"
// GEN: "arith.constant"() <{value = -1 : i32}> : () -> i32
// GEN-NEXT: "arith.xori"
// GEN: "hfusion.elemwise_unary"
// GEN: "arith.extui"(%{{.*}}) : (i1) -> i32
// GEN-NEXT: "math.absi"
// GEN: "hfusion.elemwise_binary"
// GEN: "arith.remf"
// GEN: "hfusion.cast"
// GEN: "math.round"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> {round_mode = #hfusion.round_mode<round>} : (f16) -> f16
// GEN: "hfusion.cast"
// GEN: "arith.fptosi"(%{{.*}}) {enable_saturate = true, round_mode = #hfusion.round_mode<rint>, unsigned_mode = #hfusion.unsigned_mode<si2ui>} : (f16) -> i32
// GEN: "hfusion.cast"
// GEN: "arith.uitofp"(%{{.*}}) {round_mode = #hfusion.round_mode<rint>} : (i1) -> f16
// GEN: "hfusion.cast"
// GEN-NEXT: ^bb0(%[[IN:arg[0-9]+]]: i32, %{{.*}}: i32):
// GEN-NEXT: "linalg.yield"(%[[IN]]) : (i32) -> ()
// GEN: "linalg.elemwise_unary"
// GEN: "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GEN-NEXT: "arith.divf"
// GEN: "linalg.elemwise_binary"
// GEN: "arith.extui"(%{{.*}}) : (i1) -> i32
// GEN-NEXT: "arith.maxui"
// CHECK-LABEL: func.func @bodies
// CHECK: linalg.elemwise_unary {fun = #linalg.unary_fn<reciprocal>} ins(%arg3 : memref<8xf32>) outs(%arg3 : memref<8xf32>){{$}}
func.func @bodies(%u: tensor<8xi32>, %f: tensor<8xf16>, %b: tensor<8xi1>, %m: memref<8xf32>) {
  %e32 = tensor.empty() : tensor<8xi32>
  %e16 = tensor.empty() : tensor<8xf16>
  %0 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<relu>} ins(%u : tensor<8xi32>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  %1 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<vnot>} ins(%0 : tensor<8xi32>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  %2 = hfusion.elemwise_unary {cast = #hfusion.type_fn<cast_unsigned>, fun = #hfusion.unary_fn<absi>} ins(%b : tensor<8xi1>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  %3 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<mod>} ins(%f, %f : tensor<8xf16>, tensor<8xf16>) outs(%e16 : tensor<8xf16>) -> tensor<8xf16>
  %5 = hfusion.cast {round_mode = #hfusion.round_mode<round>} ins(%f : tensor<8xf16>) outs(%e16 : tensor<8xf16>) -> tensor<8xf16>
  %6 = hfusion.cast {enable_saturate = true, unsigned_mode = #hfusion.unsigned_mode<si2ui>} ins(%f : tensor<8xf16>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  %7 = hfusion.cast ins(%b : tensor<8xi1>) outs(%e16 : tensor<8xf16>) -> tensor<8xf16>
  %8 = hfusion.cast ins(%u : tensor<8xi32>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  linalg.elemwise_unary {fun = #linalg.unary_fn<reciprocal>} ins(%m : memref<8xf32>) outs(%m : memref<8xf32>)
  %9 = linalg.elemwise_binary {cast = #linalg.type_fn<cast_unsigned>, fun = #linalg.binary_fn<max_unsigned>} ins(%b, %u : tensor<8xi1>, tensor<8xi32>) outs(%e32 : tensor<8xi32>) -> tensor<8xi32>
  return
}
