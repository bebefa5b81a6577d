// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @missing_value(%m0: vector<16xi1>) -> vector<16xf32> {
  // expected-error@+1 {{'vector.mask' op expects number of results to match mask region yielded values}}
  %0 = vector.mask %m0 { } : vector<16xi1> -> vector<16xf32>
  return %0 : vector<16xf32>
}
