// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed gathers and scatters (this file gives the same diagnostics
// with mlir-opt 22).

func.func @result_shape(%s: tensor<6x7xf32>, %i: tensor<3x1xindex>) {
  // expected-error@+1 {{'tensor.gather' op result type mismatch: expected 'tensor<3x6x1xf32>' or its rank-reduced variant 'tensor<3x6xf32>' (got: 'tensor<3x7xf32>')}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<6x7xf32>, tensor<3x1xindex>) -> tensor<3x7xf32>
  return
}

// -----

func.func @unsorted_dims(%s: tensor<6x7xf32>, %i: tensor<3x2xindex>) {
  // expected-error@+1 {{'tensor.gather' op gather_dims values must be strictly increasing}}
  %0 = tensor.gather %s[%i] gather_dims([1, 0]) : (tensor<6x7xf32>, tensor<3x2xindex>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @index_width(%s: tensor<6x7xf32>, %i: tensor<3x2xindex>) {
  // expected-error@+1 {{'tensor.gather' op gather_dims length must match the size of last dimension of indices}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<6x7xf32>, tensor<3x2xindex>) -> tensor<3x6x1xf32>
  return
}

// -----

func.func @float_indices(%s: tensor<6x7xf32>, %i: tensor<3x1xf32>) {
  // expected-error@+1 {{'tensor.gather' op operand #1 must be ranked tensor of signless integer or index values, but got 'tensor<3x1xf32>'}}
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<6x7xf32>, tensor<3x1xf32>) -> tensor<3x6x1xf32>
  return
}

// -----

func.func @not_unique(%d: tensor<6x7xf32>, %i: tensor<3x1xindex>, %u: tensor<3x6xf32>) {
  // expected-error@+1 {{'tensor.scatter' op requires 'unique' attribute to be set}}
  %0 = tensor.scatter %u into %d[%i] scatter_dims([1]) : (tensor<3x6xf32>, tensor<6x7xf32>, tensor<3x1xindex>) -> tensor<6x7xf32>
  return
}

// -----

func.func @dims_out_of_range(%d: tensor<6x7xf32>, %i: tensor<3x1xindex>, %u: tensor<3x6xf32>) {
  // expected-error@+1 {{'tensor.scatter' op scatter_dims value must be smaller than dest rank}}
  %0 = tensor.scatter %u into %d[%i] scatter_dims([2]) unique : (tensor<3x6xf32>, tensor<6x7xf32>, tensor<3x1xindex>) -> tensor<6x7xf32>
  return
}
