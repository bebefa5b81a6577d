// Convolutions, poolings and the other fixed-loop named ops are checked as
// mlir-opt 22 checks them: attribute shapes while parsing, then the
// convolution interface, the body, the destination-style and structured
// interfaces (ranks, sizes the loops imply), and the contraction interface.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @filter_rank(%i: memref<1x8x8x3xf32>, %k: memref<3x3x3xf32>, %o: memref<1x6x6x4xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op expected operand #1 rank (3) to match the result rank of indexing_map (4)
  linalg.conv_2d_nhwc_hwcf ins(%i, %k : memref<1x8x8x3xf32>, memref<3x3x3xf32>) outs(%o : memref<1x6x6x4xf32>)
  return
}

// -----

func.func @window_too_wide(%i: tensor<1x8x3xf32>, %k: tensor<3x3x2xf32>, %o: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  // Four outputs two apart under a three-wide filter read nine rows.
  // CHECK: [[@LINE+1]]:8: error: 'linalg.conv_1d_nwc_wcf' op inferred input/output operand #0 has shape's dimension #1 to be greater than or equal to 9, but found 8
  %0 = linalg.conv_1d_nwc_wcf {strides = dense<2> : tensor<1xi64>} ins(%i, %k : tensor<1x8x3xf32>, tensor<3x3x2xf32>) outs(%o : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @channels_disagree(%i: memref<2x5x5xf32>, %k: memref<2xf32>, %o: memref<2x3x4xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.pooling_ncw_max' op inferred input/output operand #2 has shape's dimension #1 to be 5, but found 3
  linalg.pooling_ncw_max ins(%i, %k : memref<2x5x5xf32>, memref<2xf32>) outs(%o : memref<2x3x4xf32>)
  return
}

// -----

func.func @strides_shape(%i: memref<1x8x8x3xf32>, %k: memref<3x3x3x4xf32>, %o: memref<1x6x6x4xf32>) {
  // CHECK: [[@LINE+1]]:28: error: custom op 'linalg.conv_2d_nhwc_hwcf' 'linalg.conv_2d_nhwc_hwcf' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]
  linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<3xi64>} ins(%i, %k : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%o : memref<1x6x6x4xf32>)
  return
}

// -----

func.func @dilations_type(%i: memref<1x8x3xf32>, %k: memref<3x3xf32>, %o: memref<1x6x3xf32>) {
  // CHECK: [[@LINE+1]]:35: error: custom op 'linalg.depthwise_conv_1d_nwc_wc' 'linalg.depthwise_conv_1d_nwc_wc' op attribute 'dilations' failed to satisfy constraint: 64-bit signless int elements attribute of shape [1]
  linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi32>} ins(%i, %k : memref<1x8x3xf32>, memref<3x3xf32>) outs(%o : memref<1x6x3xf32>)
  return
}

// -----

func.func @no_filter(%i: memref<1x8x8x3xf32>, %o: memref<1x6x6x3xf32>) {
  linalg.pooling_nhwc_sum ins(%i : memref<1x8x8x3xf32>) outs(%o : memref<1x6x6x3xf32>)
  // CHECK: [[@LINE+1]]:3: error: custom op 'linalg.pooling_nhwc_sum' [parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got 2
  return
}

// -----

func.func @zero_dilation(%i: memref<1x8x8x3xf32>, %k: memref<3x3x3x4xf32>, %o: memref<1x6x6x4xf32>) {
  // A zero dilation drops the filter loops from the input map.
  // CHECK: [[@LINE+1]]:3: error: unexpected loop dimension for convolution op
  linalg.conv_2d_nhwc_hwcf {dilations = dense<0> : tensor<2xi64>} ins(%i, %k : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%o : memref<1x6x6x4xf32>)
  return
}

// -----

func.func @missing_result(%i: tensor<6xf32>, %k: tensor<3xf32>, %o: tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.conv_1d' op expected the number of tensor results (0) to be equal to the number of output tensors (1)
  linalg.conv_1d ins(%i, %k : tensor<6xf32>, tensor<3xf32>) outs(%o : tensor<4xf32>)
  return
}

// -----

func.func @mixed(%i: tensor<6xf32>, %k: memref<3xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:8: error: 'linalg.conv_1d' op expected to have pure tensor or buffer semantics
  %0 = linalg.conv_1d ins(%i, %k : tensor<6xf32>, memref<3xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bool_zero_points(%i: memref<1x6x6x3xi1>, %k: memref<3x3x3x2xi1>, %z: i1, %o: memref<1x4x4x2xi1>) {
  // CHECK: [[@LINE+1]]:30: error: custom op 'linalg.conv_2d_nhwc_hwcf_q' unsupported operation: sub with bools
  linalg.conv_2d_nhwc_hwcf_q ins(%i, %k, %z, %z : memref<1x6x6x3xi1>, memref<3x3x3x2xi1>, i1, i1) outs(%o : memref<1x4x4x2xi1>)
  return
}

// -----

func.func @index_pool(%i: memref<1x4x4x2xindex>, %k: memref<2x2xf32>, %o: memref<1x3x3x2xf32>) {
  // CHECK: [[@LINE+1]]:27: error: custom op 'linalg.pooling_nhwc_max' Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got 'f32' and 'index'
  linalg.pooling_nhwc_max ins(%i, %k : memref<1x4x4x2xindex>, memref<2x2xf32>) outs(%o : memref<1x3x3x2xf32>)
  return
}

// -----

func.func @matvec_vector_rank(%a: memref<3x5xf32>, %x: memref<5x2xf32>, %y: memref<3xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.matvec' op expected operand #1 rank (2) to match the result rank of indexing_map (1)
  linalg.matvec ins(%a, %x : memref<3x5xf32>, memref<5x2xf32>) outs(%y : memref<3xf32>)
  return
}

// -----

func.func @reduce_output_rank(%a: memref<2x3x5xf32>, %b: memref<2x5x7xf32>, %c: memref<2x3x7xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.batch_reduce_matmul' op expected operand #2 rank (3) to match the result rank of indexing_map (2)
  linalg.batch_reduce_matmul ins(%a, %b : memref<2x3x5xf32>, memref<2x5x7xf32>) outs(%c : memref<2x3x7xf32>)
  return
}

// -----

func.func @contract_no_maps(%a: memref<3x5xf32>, %b: memref<5x7xf32>, %c: memref<3x7xf32>) {
  // CHECK: [[@LINE+1]]:19: error: custom op 'linalg.contract' expected 'indexing_maps' attribute
  linalg.contract ins(%a, %b : memref<3x5xf32>, memref<5x7xf32>) outs(%c : memref<3x7xf32>)
  return
}

// -----

func.func @contract_free_dim(%a: memref<3x5xf32>, %b: memref<5x7xf32>, %c: memref<3x5xf32>) {
  // The output reads k instead of n: n is read by one input only.
  // CHECK: [[@LINE+1]]:3: error: iteration space dim at index 1 is neither a contracting dim nor of parallel iteration type
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, k)>]
    ins(%a, %b : memref<3x5xf32>, memref<5x7xf32>) outs(%c : memref<3x5xf32>)
  return
}

// -----

func.func @contract_shifted(%a: memref<3x6xf32>, %b: memref<5x7xf32>, %c: memref<3x7xf32>) {
  // CHECK: [[@LINE+1]]:3: error: provided affine_map is not a projected permutation
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k + 1)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<3x6xf32>, memref<5x7xf32>) outs(%c : memref<3x7xf32>)
  return
}

// -----

func.func @one_input(%i: memref<1x8x8x3xf32>, %o: memref<1x6x6x4xf32>) {
  // CHECK: [[@LINE+1]]:3: error: expected op with 2 inputs and 1 output
  "linalg.conv_2d_nhwc_hwcf"(%i, %o) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }) : (memref<1x8x8x3xf32>, memref<1x6x6x4xf32>) -> ()
  return
}

// -----

func.func @not_a_product(%a: memref<3x5xf32>, %x: memref<5xf32>, %y: memref<3xf32>) {
  // CHECK: [[@LINE+1]]:3: error: expected add/mul op in the body
  "linalg.matvec"(%a, %x, %y) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%p: f32, %q: f32, %r: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.mulf %r, %0 : f32
    linalg.yield %1 : f32
  }) : (memref<3x5xf32>, memref<5xf32>, memref<3xf32>) -> ()
  return
}

// -----

func.func @bb_arg_type(%i: memref<1x5x2xf32>, %k: memref<2xf32>, %o: memref<1x4x2xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.pooling_nwc_sum' op expected type of bb argument #2 ('f16') to match element or self type of the corresponding operand ('f32')
  "linalg.pooling_nwc_sum"(%i, %k, %o) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %c: f16):
    linalg.yield %a : f32
  }) : (memref<1x5x2xf32>, memref<2xf32>, memref<1x4x2xf32>) -> ()
  return
}

// -----

func.func @two_yields(%i: memref<1x5x2xf32>, %k: memref<2xf32>, %o: memref<1x4x2xf32>) {
  "linalg.pooling_nwc_max"(%i, %k, %o) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    // CHECK: [[@LINE+1]]:5: error: 'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)
    linalg.yield %a, %c : f32, f32
  }) : (memref<1x5x2xf32>, memref<2xf32>, memref<1x4x2xf32>) -> ()
  return
}

// -----

func.func @generic_strides(%i: memref<1x5x2xf32>, %k: memref<2x2x3xf32>, %o: memref<1x4x3xf32>) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.conv_1d_nwc_wcf' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [1]
  "linalg.conv_1d_nwc_wcf"(%i, %k, %o) <{operandSegmentSizes = array<i32: 2, 1>, strides = dense<1> : tensor<2xi64>}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    linalg.yield %a : f32
  }) : (memref<1x5x2xf32>, memref<2x2x3xf32>, memref<1x4x3xf32>) -> ()
  return
}

// -----

func.func @scalar_init(%i: memref<4xf32>, %k: memref<4xf32>, %o: f32) {
  // CHECK: [[@LINE+1]]:3: error: 'linalg.dot' op operand #2 must be variadic of shaped of any type values, but got 'f32'
  "linalg.dot"(%i, %k, %o) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    linalg.yield %a : f32
  }) : (memref<4xf32>, memref<4xf32>, f32) -> ()
  return
}

// -----

func.func @memref_result(%i: memref<4xf32>, %k: memref<4xf32>, %o: memref<f32>) {
  // CHECK: [[@LINE+1]]:8: error: 'linalg.dot' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<f32>'
  %0 = "linalg.dot"(%i, %k, %o) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    linalg.yield %a : f32
  }) : (memref<4xf32>, memref<4xf32>, memref<f32>) -> memref<f32>
  return
}
