// convert-tensor-to-hivm: concatenations and constant paddings become HIVM
// vector ops writing a tensor.empty of the result's size.
// RUN: hivm-opt %s --split-input-file --convert-tensor-to-hivm | FileCheck %s
// RUN: hivm-opt %s --split-input-file --convert-to-hivm-pipeline | FileCheck %s

// The concatenated size of dynamic inputs is their sum; other dynamic
// sizes come from the first input.
// CHECK: #[[SUM:.*]] = affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>
// CHECK-LABEL: func.func @concat_rows
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[W:.*]] = tensor.dim %arg0, %[[C1]] : tensor<?x?xf16>
// CHECK: %[[A:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf16>
// CHECK: %[[B:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x?xf16>
// CHECK: %[[C:.*]] = tensor.dim %arg2, %{{.*}} : tensor<?x?xf16>
// CHECK: %[[N:.*]] = affine.apply #[[SUM]]()[%[[A]], %[[B]], %[[C]]]
// CHECK: %[[E:.*]] = tensor.empty(%[[N]], %[[W]]) : tensor<?x?xf16>
// CHECK: %[[R:.*]] = hivm.hir.vconcat dim(0) ins(%arg0, %arg1, %arg2 : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>) outs(%[[E]] : tensor<?x?xf16>) -> tensor<?x?xf16>
// CHECK: return %[[R]]
func.func @concat_rows(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// Static inputs along the axis fold into the sum; a static result size wins.
// CHECK: #[[PLUS5:.*]] = affine_map<()[s0] -> (s0 + 5)>
// CHECK-LABEL: func.func @concat_mixed
// CHECK: %[[D:.*]] = tensor.dim %arg1, %{{.*}} : tensor<3x?xi32>
// CHECK: %[[N:.*]] = affine.apply #[[PLUS5]]()[%[[D]]]
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<3x?xi32>
// CHECK: hivm.hir.vconcat dim(1) ins(%arg0, %arg1 : tensor<3x5xi32>, tensor<3x?xi32>) outs(%[[E]] : tensor<3x?xi32>)
// CHECK: %[[F:.*]] = tensor.empty() : tensor<3x9xi32>
// CHECK: hivm.hir.vconcat dim(1) ins(%arg0, %arg1 : tensor<3x5xi32>, tensor<3x?xi32>) outs(%[[F]] : tensor<3x9xi32>)
func.func @concat_mixed(%a: tensor<3x5xi32>, %b: tensor<3x?xi32>) -> (tensor<3x?xi32>, tensor<3x9xi32>) {
  %r = tensor.concat dim(1) %a, %b : (tensor<3x5xi32>, tensor<3x?xi32>) -> tensor<3x?xi32>
  %s = tensor.concat dim(1) %a, %b : (tensor<3x5xi32>, tensor<3x?xi32>) -> tensor<3x9xi32>
  return %r, %s : tensor<3x?xi32>, tensor<3x9xi32>
}

// -----

// A pad by constants folds to a static size; dynamic amounts keep the
// sizes they touch dynamic, and a cast restores the pad's own type.
// CHECK: #[[PLUS5:.*]] = affine_map<()[s0] -> (s0 + 5)>
// CHECK-LABEL: func.func @pads
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<12x7xf32>
// CHECK: %[[P:.*]] = hivm.hir.vpad ins(%arg0 : tensor<8x4xf32>) outs(%[[E]] : tensor<12x7xf32>) low[1, %{{.*}}] high[3, 1] pad_value %[[Z]] : f32 -> tensor<12x7xf32>
// CHECK: %[[A:.*]] = affine.apply #[[PLUS5]]()[%arg1]
// CHECK: %[[F:.*]] = tensor.empty(%[[A]]) : tensor<8x?xf32>
// CHECK: %[[Q:.*]] = hivm.hir.vpad ins(%arg0 : tensor<8x4xf32>) outs(%[[F]] : tensor<8x?xf32>) low[0, %arg1] high[0, 1] pad_value %[[Z]] : f32 -> tensor<8x?xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[Q]] : tensor<8x?xf32> to tensor<8x9xf32>
// CHECK: return %[[P]], %[[CAST]]
func.func @pads(%x: tensor<8x4xf32>, %n: index) -> (tensor<12x7xf32>, tensor<8x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  %p = tensor.pad %x low[1, %two] high[3, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x4xf32> to tensor<12x7xf32>
  %q = tensor.pad %x low[0, %n] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x4xf32> to tensor<8x9xf32>
  return %p, %q : tensor<12x7xf32>, tensor<8x9xf32>
}

// -----

// On memory-based targets, the index a later insert_slice mark records
// for the concatenation moves onto it, and the mark goes.
// CHECK-LABEL: func.func @marked_concat
// CHECK: hivm.hir.vconcat dim(1) {hivm.insert_slice_source_index = 2 : i64}
// CHECK-NOT: annotation.mark
func.func @marked_concat(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<12xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %f = tensor.collapse_shape %c [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
  annotation.mark %f {hfusion.insert_slice_source_index = 2 : i32} : tensor<12xf32>
  return %f : tensor<12xf32>
}
