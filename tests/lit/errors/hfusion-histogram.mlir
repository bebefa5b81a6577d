// hfusion.histogram's checks: the ODS element types of input, mask and
// output, then one static rank-1 count per bin and a mask shaped like the
// input.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @counts(%x: tensor<16xui8>, %m: tensor<16xi8>) -> tensor<8xi64> {
  %h = hfusion.histogram %x, 8, %m : tensor<16xui8>, tensor<16xi8> -> tensor<8xi64>
  return %h : tensor<8xi64>
}

// -----

func.func @float_input(%x: tensor<16xf32>) -> tensor<8xi32> {
  // expected-error@+1 {{'hfusion.histogram' op operand #0 must be ranked tensor of 8-bit signless integer or 8-bit unsigned integer}}
  %h = hfusion.histogram %x, 8 : tensor<16xf32> -> tensor<8xi32>
  return %h : tensor<8xi32>
}

// -----

func.func @bins(%x: tensor<16xi32>) -> tensor<5xi32> {
  // expected-error@+1 {{'hfusion.histogram' op output length (5) must equal num_bins (8)}}
  %h = hfusion.histogram %x, 8 : tensor<16xi32> -> tensor<5xi32>
  return %h : tensor<5xi32>
}

// -----

func.func @dynamic(%x: tensor<16xi32>) -> tensor<?xi32> {
  // expected-error@+1 {{'hfusion.histogram' op output must have static shape}}
  %h = hfusion.histogram %x, 8 : tensor<16xi32> -> tensor<?xi32>
  return %h : tensor<?xi32>
}

// -----

func.func @narrow_counts(%x: tensor<16xi32>) -> tensor<8xi16> {
  // expected-error@+1 {{'hfusion.histogram' op output element type must be i32 or i64}}
  %h = hfusion.histogram %x, 8 : tensor<16xi32> -> tensor<8xi16>
  return %h : tensor<8xi16>
}

// -----

func.func @mask_shape(%x: tensor<16xi32>, %m: tensor<8xi1>) -> tensor<8xi32> {
  // expected-error@+1 {{'hfusion.histogram' op mask shape must match input shape}}
  %h = hfusion.histogram %x, 8, %m : tensor<16xi32>, tensor<8xi1> -> tensor<8xi32>
  return %h : tensor<8xi32>
}
