// hfusion's convolutions, gather_mask and group_matmul, with the bodies
// upstream's parsers build for them, and the mathExt dialect that hfusion's
// ilogb/lgamma/ldexp/divfhp bodies use.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @convs
// CHECK: %0 = hfusion.conv1d {dilation = 1 : i32, groups = 2 : i32, padding = 0 : i32, stride = 1 : i32} ins(%arg0, %arg1 : tensor<8x20xf16>, tensor<6x4x3xf16>) outs(%arg2 : tensor<6x18xf16>) -> tensor<6x18xf16>
// CHECK: %1 = hfusion.conv2d {dilation = [1, 1], groups = 1 : i32, padding = [0, 1], stride = 1 : i32} ins(%arg3, %arg4, %arg5 : tensor<2x4x10x10xf32>, tensor<5x4x3x3xf32>, tensor<5xf32>) outs(%arg6 : tensor<2x5x8x10xf32>) -> tensor<2x5x8x10xf32>
// CHECK: %2 = hfusion.conv3d {dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32} ins(%arg7, %arg8 : tensor<3x4x6x6xf16>, tensor<2x3x3x3x3xf16>) outs(%arg9 : tensor<2x4x6x6xf16>) -> tensor<2x4x6x6xf16>
// GEN-LABEL: sym_name = "convs"
// GEN: "hfusion.conv1d"(%{{.*}}, %{{.*}}, %{{.*}}) <{dilation = 1 : i32, groups = 2 : i32, padding = 0 : i32, stride = 1 : i32}> ({
// GEN-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16, %{{.*}}: f16):
// GEN-NEXT: "linalg.yield"(%[[IN]]) : (f16) -> ()
func.func @convs(%i1: tensor<8x20xf16>, %w1: tensor<6x4x3xf16>, %o1: tensor<6x18xf16>,
                 %i2: tensor<2x4x10x10xf32>, %w2: tensor<5x4x3x3xf32>, %b2: tensor<5xf32>, %o2: tensor<2x5x8x10xf32>,
                 %i3: tensor<3x4x6x6xf16>, %w3: tensor<2x3x3x3x3xf16>, %o3: tensor<2x4x6x6xf16>) {
  %0 = hfusion.conv1d {groups = 2 : i32, stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32} ins(%i1, %w1 : tensor<8x20xf16>, tensor<6x4x3xf16>) outs(%o1 : tensor<6x18xf16>) -> tensor<6x18xf16>
  %1 = hfusion.conv2d {dilation = [1, 1], groups = 1 : i32, padding = [0, 1], stride = 1 : i32} ins(%i2, %w2, %b2 : tensor<2x4x10x10xf32>, tensor<5x4x3x3xf32>, tensor<5xf32>) outs(%o2 : tensor<2x5x8x10xf32>) -> tensor<2x5x8x10xf32>
  %2 = hfusion.conv3d {dilation = 1 : i32, groups = 1 : i32, padding = 1 : i32, stride = 1 : i32} ins(%i3, %w3 : tensor<3x4x6x6xf16>, tensor<2x3x3x3x3xf16>) outs(%o3 : tensor<2x4x6x6xf16>) -> tensor<2x4x6x6xf16>
  return
}

// CHECK-LABEL: func.func @masks
// CHECK: %2:2 = hfusion.gather_mask ins(%arg0, %arg1 : tensor<32xf32>, tensor<32xi8>) outs(%0, %1 : tensor<32xf32>, tensor<1xi32>) -> (tensor<32xf32>, tensor<1xi32>)
// CHECK: hfusion.gather_mask {note = "buffers"} ins(%arg2, %arg3 : memref<32xf32>, memref<32xi1>) outs(%arg4, %arg5 : memref<32xf32>, memref<1xi32>){{$}}
// GEN-LABEL: sym_name = "masks"
// GEN: "hfusion.gather_mask"
// GEN-NEXT: ^bb0(%[[S:.*]]: f32, %[[M:.*]]: i8, %[[D:.*]]: f32, %{{.*}}: i32):
// GEN-NEXT: %[[B:.*]] = "arith.trunci"(%[[M]]){{.*}} : (i8) -> i1
// GEN-NEXT: %[[R:.*]] = "arith.select"(%[[B]], %[[S]], %[[D]]) : (i1, f32, f32) -> f32
// GEN-NEXT: %[[Z:.*]] = "arith.constant"() <{value = 0 : i32}> : () -> i32
// GEN-NEXT: "linalg.yield"(%[[R]], %[[Z]]) : (f32, i32) -> ()
func.func @masks(%src: tensor<32xf32>, %keep: tensor<32xi8>, %msrc: memref<32xf32>, %mkeep: memref<32xi1>,
                 %mdata: memref<32xf32>, %mlen: memref<1xi32>) {
  %data = tensor.empty() : tensor<32xf32>
  %len = tensor.empty() : tensor<1xi32>
  %r:2 = hfusion.gather_mask ins(%src, %keep : tensor<32xf32>, tensor<32xi8>) outs(%data, %len : tensor<32xf32>, tensor<1xi32>) -> (tensor<32xf32>, tensor<1xi32>)
  hfusion.gather_mask {note = "buffers"} ins(%msrc, %mkeep : memref<32xf32>, memref<32xi1>) outs(%mdata, %mlen : memref<32xf32>, memref<1xi32>)
  return
}

// CHECK-LABEL: func.func @grouped
// CHECK: hfusion.group_matmul ins(%arg0, %arg1, %arg2 : tensor<4x?x?xf16>, tensor<?x?xf16>, tensor<4xi64>) outs(%arg3 : tensor<?x?xf16>) -> tensor<?x?xf16>
// GEN-LABEL: sym_name = "grouped"
// GEN: "hfusion.group_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 3, 1>}> ({
// GEN-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: i64, %[[OUT:.*]]: f16):
// GEN-NEXT: "linalg.yield"(%[[OUT]]) : (f16) -> ()
func.func @grouped(%w: tensor<4x?x?xf16>, %t: tensor<?x?xf16>, %n: tensor<4xi64>, %o: tensor<?x?xf16>) {
  %0 = hfusion.group_matmul ins(%w, %t, %n : tensor<4x?x?xf16>, tensor<?x?xf16>, tensor<4xi64>) outs(%o : tensor<?x?xf16>) -> tensor<?x?xf16>
  return
}

// CHECK-LABEL: func.func @math_ext
// CHECK: %0 = mathExt.ilogb %arg0 : f32
// CHECK: %1 = mathExt.lgamma %arg0 fastmath<nnan> : f32
// CHECK: %2 = mathExt.ldexp %arg0, %arg0 : f32
// CHECK: %3 = mathExt.divfhp %arg1, %arg1 fastmath<fast> : vector<8xf16>
// CHECK: hfusion.elemwise_unary {fun = #hfusion.unary_fn<ilogb>} ins(%arg2 : tensor<8xf16>) outs(%4 : tensor<8xf16>) -> tensor<8xf16>
// CHECK: hfusion.elemwise_binary {fun = #hfusion.binary_fn<divfhp>} ins(%arg2, %arg3 : tensor<8xf16>, tensor<8xi32>) outs(%4 : tensor<8xf16>) -> tensor<8xf16>
// GEN-LABEL: sym_name = "math_ext"
// GEN: "mathExt.ilogb"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
// GEN: "hfusion.elemwise_unary"
// GEN: "mathExt.ilogb"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f16) -> f16
// GEN: "hfusion.elemwise_binary"
// GEN: "arith.sitofp"(%{{.*}}) : (i32) -> f16
// GEN-NEXT: "mathExt.divfhp"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
// GEN: "hfusion.elemwise_binary"
// GEN: "mathExt.ldexp"
// GEN: "hfusion.elemwise_unary"
// GEN: "mathExt.lgamma"
func.func @math_ext(%x: f32, %v: vector<8xf16>, %t: tensor<8xf16>, %k: tensor<8xi32>) {
  %0 = mathExt.ilogb %x : f32
  %1 = mathExt.lgamma %x fastmath<nnan> : f32
  %2 = mathExt.ldexp %x, %x : f32
  %3 = mathExt.divfhp %v, %v fastmath<fast> : vector<8xf16>
  %e = tensor.empty() : tensor<8xf16>
  %4 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<ilogb>} ins(%t : tensor<8xf16>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %5 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<divfhp>} ins(%t, %k : tensor<8xf16>, tensor<8xi32>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %6 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<ldexp>} ins(%t, %t : tensor<8xf16>, tensor<8xf16>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %7 = hfusion.elemwise_unary {fun = #hfusion.unary_fn<lgamma>} ins(%t : tensor<8xf16>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  return
}
