// hfusion's ops are checked as upstream checks them, at the op.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @args(%x: tensor<4xf32>) {
  // MLIR reports the count where the op's text ends (at the next token).
  // CHECK: [[@LINE+2]]:3: error: custom op 'hfusion.elemwise_binary' [parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got 2
  %0 = hfusion.elemwise_binary ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @results(%x: tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'hfusion.elemwise_unary' op expected the number of tensor results (0) to be equal to the number of output tensors (1)
  hfusion.elemwise_unary ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>)
  return
}

// -----

func.func @shapes(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.elemwise_unary' op inferred input/output operand #1 has shape's dimension #0 to be 4, but found 8
  %0 = hfusion.elemwise_unary ins(%x : tensor<4xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @channel(%x: tensor<8xi8>) {
  // CHECK: [[@LINE+1]]:40: error: expects a channel integer or keyword `all`
  %0 = hfusion.deinterleave %x channel<one> : tensor<8xi8> -> tensor<4xi8>
  return
}

// -----

func.func @cum(%x: tensor<4x8xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.cumsum' op have invalid index '2' inside cum dims array
  %0 = hfusion.cumsum %x : tensor<4x8xf16> cum_dims = [2] reverse = true -> tensor<4x8xf16>
  return
}

// -----

func.func @reduce(%x: tensor<4x8xf16>, %v: tensor<4xf16>, %i: tensor<4xi32>) {
  // CHECK: [[@LINE+1]]:10: error: 'hfusion.reduce_with_index' op dimensions for reduction should be in the range [0, 1].
  %0:2 = hfusion.reduce_with_index <max> ins(%x : tensor<4x8xf16>) outs(%v, %i : tensor<4xf16>, tensor<4xi32>) dimensions = [2] -> tensor<4xf16>, tensor<4xi32>
  return
}

// -----

func.func @gather(%s: tensor<4x8xf16>, %i: tensor<4x2xi32>, %o: tensor<4x2xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gather' op failed to verify that axis must be less than rank of init
  %0 = hfusion.gather ins(%s, %i : tensor<4x8xf16>, tensor<4x2xi32>) outs(%o : tensor<4x2xf16>) axis = 2 -> tensor<4x2xf16>
  return
}

// -----

func.func @interleave(%x: tensor<3xi8>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.interleave' op last dimension size of output RankedTensorType must be multiples of current channel num
  %0 = hfusion.interleave %x, %x : tensor<3xi8>, tensor<3xi8> -> tensor<5xi8>
  return
}

// -----

func.func @gather_load_shape(%gm: memref<?xf32>, %idx: tensor<8xi32>, %o: tensor<4xf32>) {
  %c = arith.constant 1 : i64
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gather_load' op failed to verify that all of {indices, dst} have same shape
  %0 = hfusion.gather_load ins(%gm : memref<?xf32>, %idx : tensor<8xi32>, %c : i64) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_load_other(%gm: memref<?xf32>, %idx: tensor<8xi32>, %m: tensor<8xi1>, %f: tensor<8xf16>, %o: tensor<8xf32>) {
  %c = arith.constant 1 : i64
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gather_load' op other of hfusion::GatherLoadOp must have the same element type as base
  %0 = hfusion.gather_load ins(%gm : memref<?xf32>, %idx : tensor<8xi32>, %c : i64, %m : tensor<8xi1>, %f : tensor<8xf16>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @gather_load_index_type(%gm: memref<?xf32>, %idx: tensor<8xf32>, %o: tensor<8xf32>) {
  %c = arith.constant 1 : i64
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gather_load' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<8xf32>'
  %0 = hfusion.gather_load ins(%gm : memref<?xf32>, %idx : tensor<8xf32>, %c : i64) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_mask(%gm: memref<?xf32>, %idx: tensor<8xi32>, %d: tensor<8xf32>, %m: tensor<4xi1>) {
  %c = arith.constant 1 : i64
  // CHECK: [[@LINE+1]]:3: error: 'hfusion.scatter_store' op mask of hfusion::ScatterStoreOp must have the same shape and rank as data
  hfusion.scatter_store ins(%idx : tensor<8xi32>, %d : tensor<8xf32>, %c : i64, %m : tensor<4xi1>) outs(%gm : memref<?xf32>)
  return
}

// -----

func.func @embedding_src(%t: tensor<64xf32>, %ids: tensor<4xi32>, %o: tensor<4x8xf32>, %c: i32) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.embedding_gather' op operand #0 must be memref of any type values, but got 'tensor<64xf32>'
  %0 = hfusion.embedding_gather ins(%t : tensor<64xf32>, %ids : tensor<4xi32>, %c : i32, [%c : i32], [%c : i32]) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @index_put_dim(%gm: memref<8x8xf32>, %r: tensor<2xi64>, %v: tensor<2x8xf32>, %d: index, %c: i64) {
  // CHECK: [[@LINE+1]]:3: error: 'hfusion.index_put' op operand #3 must be 32-bit signless integer or 64-bit signless integer, but got 'index'
  hfusion.index_put ins(%gm : memref<8x8xf32>, %r : tensor<2xi64>, %v : tensor<2x8xf32>, %d : index, %c : i64, [%c : i64], [%c : i64], [%c : i64])
  return
}

// -----

// Without segment sizes the three index lists must split evenly.
func.func @gather_t_uneven(%gm: memref<?xf32>, %i: tensor<4xi32>, %o: tensor<4xf32>, %c: i32) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gatherT' op expected the 3 variadic operand groups to have the same size
  %0 = "hfusion.gatherT"(%gm, %i, %o, %c, %c, %c, %c) : (memref<?xf32>, tensor<4xi32>, tensor<4xf32>, i32, i32, i32, i32) -> tensor<4xf32>
  return
}

// -----

func.func @signbit_type(%x: tensor<4xf64>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.signbit' op operand #0 must be ranked tensor of 16-bit float or 32-bit float values, but got 'tensor<4xf64>'
  %0 = "hfusion.signbit"(%x) : (tensor<4xf64>) -> tensor<4xi1>
  return
}

// -----

func.func @mask_elem(%s: tensor<8xf32>, %m: tensor<8xf32>, %d: tensor<8xf32>, %n: tensor<1xi32>) {
  // CHECK: [[@LINE+1]]:10: error: 'hfusion.gather_mask' op mask element type must be i1 or i8, but got 'f32'
  %0:2 = hfusion.gather_mask ins(%s, %m : tensor<8xf32>, tensor<8xf32>) outs(%d, %n : tensor<8xf32>, tensor<1xi32>) -> (tensor<8xf32>, tensor<1xi32>)
  return
}

// -----

func.func @mask_results(%s: tensor<8xf32>, %m: tensor<8xi1>, %d: tensor<8xf32>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.gather_mask' op expecting exactly 2 result for tensor semantics, but got 1
  %0 = hfusion.gather_mask ins(%s, %m : tensor<8xf32>, tensor<8xi1>) outs(%d : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Its length map reads one loop, so only 1-D sources pass the linalg checks.
func.func @mask_rank(%s: tensor<4x8xf32>, %m: tensor<4x8xi1>, %d: tensor<4x8xf32>, %n: tensor<1xi32>) {
  // CHECK: [[@LINE+1]]:10: error: 'hfusion.gather_mask' op expected indexing_map #3 to have 2 dim(s) to match the number of loops
  %0:2 = hfusion.gather_mask ins(%s, %m : tensor<4x8xf32>, tensor<4x8xi1>) outs(%d, %n : tensor<4x8xf32>, tensor<1xi32>) -> (tensor<4x8xf32>, tensor<1xi32>)
  return
}

// -----

func.func @conv_stride(%i: tensor<4x16xf16>, %w: tensor<8x4x3xf16>, %o: tensor<8x7xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv1d' op currently does not support stride != 1 or dilation != 1
  %0 = hfusion.conv1d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 2 : i32} ins(%i, %w : tensor<4x16xf16>, tensor<8x4x3xf16>) outs(%o : tensor<8x7xf16>) -> tensor<8x7xf16>
  return
}

// -----

func.func @conv_width(%i: tensor<4x16xf16>, %w: tensor<8x4x3xf16>, %o: tensor<8x16xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv1d' op requires output width oW to be computed as: (iW + 2 * padding - dilation * (wW - 1) - 1) / stride + 1
  %0 = hfusion.conv1d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w : tensor<4x16xf16>, tensor<8x4x3xf16>) outs(%o : tensor<8x16xf16>) -> tensor<8x16xf16>
  return
}

// -----

func.func @conv_attr(%i: tensor<4x16xf16>, %w: tensor<8x4x3xf16>, %o: tensor<8x14xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv1d' op attribute 'dilation' failed to satisfy constraint: 32-bit signless integer attribute
  %0 = hfusion.conv1d {dilation = 1 : i64, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w : tensor<4x16xf16>, tensor<8x4x3xf16>) outs(%o : tensor<8x14xf16>) -> tensor<8x14xf16>
  return
}

// -----

func.func @conv2d_pad(%i: tensor<4x8x8xf32>, %w: tensor<2x4x3x3xf32>, %o: tensor<2x6x6xf32>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv2d' op `padding` must be an integer scalar or a 2-element integer array
  %0 = hfusion.conv2d {dilation = 1 : i32, groups = 1 : i32, padding = [0, 0, 0], stride = 1 : i32} ins(%i, %w : tensor<4x8x8xf32>, tensor<2x4x3x3xf32>) outs(%o : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  return
}

// -----

func.func @conv2d_height(%i: tensor<4x8x8xf32>, %w: tensor<2x4x3x3xf32>, %o: tensor<2x7x6xf32>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv2d' op requires output height oH to be computed as: (iH + 2 * paddingH - dilationH * (wH - 1) - 1) / strideH + 1
  %0 = hfusion.conv2d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w : tensor<4x8x8xf32>, tensor<2x4x3x3xf32>) outs(%o : tensor<2x7x6xf32>) -> tensor<2x7x6xf32>
  return
}

// -----

func.func @conv3d_dynamic(%i: tensor<3x4x6x?xf16>, %w: tensor<2x3x3x3x3xf16>, %o: tensor<2x2x4x4xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv3d' op currently only supports static shape for input/weight/init/result
  %0 = hfusion.conv3d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w : tensor<3x4x6x?xf16>, tensor<2x3x3x3x3xf16>) outs(%o : tensor<2x2x4x4xf16>) -> tensor<2x2x4x4xf16>
  return
}

// -----

func.func @conv3d_depth(%i: tensor<3x4x6x6xf16>, %w: tensor<2x3x3x3x3xf16>, %o: tensor<2x3x4x4xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv3d' op requires output depth oD to be computed as: (iX + 2 * paddingX - dilationX * (wX - 1) - 1) / strideX + 1
  %0 = hfusion.conv3d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w : tensor<3x4x6x6xf16>, tensor<2x3x3x3x3xf16>) outs(%o : tensor<2x3x4x4xf16>) -> tensor<2x3x4x4xf16>
  return
}

// -----

func.func @conv_bias(%i: tensor<4x16xf16>, %w: tensor<8x4x3xf16>, %b: tensor<6xf16>, %o: tensor<8x14xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.conv1d' op requires bias shape to be oC from weight
  %0 = hfusion.conv1d {dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, stride = 1 : i32} ins(%i, %w, %b : tensor<4x16xf16>, tensor<8x4x3xf16>, tensor<6xf16>) outs(%o : tensor<8x14xf16>) -> tensor<8x14xf16>
  return
}

// -----

func.func @grouped_shape(%w: tensor<4x8x16xf16>, %t: tensor<16x8xf16>, %n: tensor<4xi64>, %o: tensor<16x8xf16>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.group_matmul' op inferred input/output operand #3 has shape's dimension #1 to be 16, but found 8
  %0 = hfusion.group_matmul ins(%w, %t, %n : tensor<4x8x16xf16>, tensor<16x8xf16>, tensor<4xi64>) outs(%o : tensor<16x8xf16>) -> tensor<16x8xf16>
  return
}

// -----

func.func @mx_inner(%a: tensor<16x32xi8>, %b: tensor<64x8xi8>, %sa: tensor<16x1xi8>, %sb: tensor<1x8xi8>, %c: tensor<16x8xf32>) {
  // CHECK: [[@LINE+1]]:8: error: 'hfusion.matmul_mx' op requires inner dimension of matmul matrix to match
  %0 = hfusion.matmul_mx ins(%a, %b, %sa, %sb : tensor<16x32xi8>, tensor<64x8xi8>, tensor<16x1xi8>, tensor<1x8xi8>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @reduce_order(%x: tensor<4x8xf16>, %v: tensor<f16>, %i: tensor<i32>) {
  // CHECK: [[@LINE+1]]:10: error: 'hfusion.reduce_with_index' op attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute should be in increasing order
  %0:2 = hfusion.reduce_with_index <max> ins(%x : tensor<4x8xf16>) outs(%v, %i : tensor<f16>, tensor<i32>) dimensions = [1, 0] -> tensor<f16>, tensor<i32>
  return
}

// -----

// Upstream compares the kept sizes with the init exactly: `?` matches only `?`.
func.func @reduce_dynamic(%x: tensor<?x8xf16>, %v: tensor<4xf16>, %i: tensor<4xi32>) {
  // CHECK: [[@LINE+1]]:10: error: 'hfusion.reduce_with_index' op init dimensions [4] doesn't match input dimensions after reduction [-9223372036854775808]
  %0:2 = hfusion.reduce_with_index <max> ins(%x : tensor<?x8xf16>) outs(%v, %i : tensor<4xf16>, tensor<4xi32>) dimensions = [1] -> tensor<4xf16>, tensor<4xi32>
  return
}

