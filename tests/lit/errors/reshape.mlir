// Reassociation and shape rules of expand_shape / collapse_shape, in the
// words of each dialect (checked against mlir-opt 22, which reports the
// same errors at the same places).
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @f(%t: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{reassociation indices must not be empty}}
  %c = tensor.collapse_shape %t [[]] : tensor<2x4xf32> into tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @f(%t: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected collapsed rank (1) to equal the number of reassociation maps (2).}}
  %c = tensor.collapse_shape %t [[0], [1]] : tensor<2x4xf32> into tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @f(%t: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected reassociation map #0 to have size equal to the expanded rank (2), but it is  10.}}
  %c = tensor.collapse_shape %t [[9]] : tensor<2x4xf32> into tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @f(%t: tensor<2x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected reassociation map #0 to be valid and contiguous.}}
  %c = tensor.collapse_shape %t [[1, 0]] : tensor<2x4xf32> into tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @f(%t: tensor<2x4xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be static value of 8}}
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<7xf32>
  return %c : tensor<7xf32>
}

// -----

func.func @f(%t: tensor<2x?xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x?xf32> into tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

func.func @f(%t: memref<2x4xf32>) -> memref<8xf32> {
  // expected-error @+1 {{invalid number of reassociation groups: found 2, expected 1}}
  %c = memref.collapse_shape %t [[0], [1]] : memref<2x4xf32> into memref<8xf32>
  return %c : memref<8xf32>
}

// -----

func.func @f(%t: memref<2x4xf32>) -> memref<8xf32> {
  // expected-error @+1 {{reassociation indices must be contiguous}}
  %c = memref.collapse_shape %t [[9]] : memref<2x4xf32> into memref<8xf32>
  return %c : memref<8xf32>
}

// -----

func.func @f(%t: memref<2x4xf32>) -> memref<8xf32> {
  // expected-error @+1 {{reassociation index 2 is out of bounds}}
  %c = memref.collapse_shape %t [[0, 1, 2]] : memref<2x4xf32> into memref<8xf32>
  return %c : memref<8xf32>
}

// -----

func.func @f(%t: memref<2x4xf32>) -> memref<8xf32> {
  // expected-error @+1 {{collapsed dim size (8) must equal reassociation group size (2)}}
  %c = memref.collapse_shape %t [[0]] : memref<2x4xf32> into memref<8xf32>
  return %c : memref<8xf32>
}

// -----

func.func @f(%t: memref<2x?xf32>) -> memref<8xf32> {
  // expected-error @+1 {{collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %c = memref.collapse_shape %t [[0, 1]] : memref<2x?xf32> into memref<8xf32>
  return %c : memref<8xf32>
}

// -----

func.func @f(%t: tensor<8xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{expected number of static shape dims to be equal to the output rank (2) but found 1 inputs instead}}
  %c = tensor.expand_shape %t [[0, 1]] output_shape [2] : tensor<8xf32> into tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @f(%t: memref<8xf32>) -> memref<4x2xf32> {
  // expected-error @+1 {{expected number of static shape bounds to be equal to the output rank (2) but found 1 inputs instead}}
  %c = memref.expand_shape %t [[0, 1]] output_shape [2] : memref<8xf32> into memref<4x2xf32>
  return %c : memref<4x2xf32>
}

// -----

func.func @f(%t: memref<8xf32>) -> memref<4x2xf32> {
  // expected-error @+1 {{invalid output shape provided at pos 1}}
  %c = memref.expand_shape %t [[0, 1]] output_shape [4, 3] : memref<8xf32> into memref<4x2xf32>
  return %c : memref<4x2xf32>
}

// -----

func.func @f(%t: tensor<8xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{expected reassociation map #0 to be valid and contiguous.}}
  %c = tensor.expand_shape %t [[1, 0]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @fill(%m: memref<8xf32>, %x: f32) {
  linalg.fill ins(%x, %x : f32, f32) outs(%m : memref<8xf32>)
  // The parser reports where the op's text ends, as mlir-opt does.
  // expected-error @+1 {{custom op 'linalg.fill' [parseNamedStructuredOpRegion] ods-gen generated region expects 2 args, got 3}}
  return
}
