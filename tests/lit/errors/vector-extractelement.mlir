// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @zero_d(%v: vector<f32>, %i: i32) {
  // expected-error@+1 {{'vector.extractelement' op expected position to be empty with 0-D vector}}
  %0 = vector.extractelement %v[%i : i32] : vector<f32>
  return
}

// -----

func.func @one_d(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.extractelement' op expected position for 1-D vector}}
  %0 = vector.extractelement %v[] : vector<4xf32>
  return
}

// -----

func.func @two_d(%v: vector<4x4xf32>, %i: i32) {
  // expected-error@+1 {{'vector.extractelement' op unexpected >1 vector rank}}
  %0 = vector.extractelement %v[%i : i32] : vector<4x4xf32>
  return
}
