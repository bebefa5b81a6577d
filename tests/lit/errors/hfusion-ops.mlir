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
