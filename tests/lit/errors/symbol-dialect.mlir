// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @rank(%m: memref<?x4xf16>) {
  %a = symbol.symbolic_int @a {max_val = 8 : i64, min_val = 1 : i64} : index
  // expected-error@+1 {{'symbol.bind_symbolic_shape' op number of results doesn't match the rank of binded operand shape}}
  symbol.bind_symbolic_shape %m, [%a], affine_map<()[s0] -> (s0)> : memref<?x4xf16>
  return
}

// -----

func.func @symbols(%m: memref<?xf16>) {
  %a = symbol.symbolic_int @a {max_val = 8 : i64, min_val = 1 : i64} : index
  // expected-error@+1 {{'symbol.bind_symbolic_shape' op number of shape symbols doesn't match the number of symbols in the affine.map}}
  symbol.bind_symbolic_shape %m, [%a, %a], affine_map<()[s0] -> (s0)> : memref<?xf16>
  return
}

// -----

func.func @producer(%i: index) {
  // expected-error@+1 {{'symbol.symbolic_int' op int symbol must be produced by valid operations}}
  %a = symbol.symbolic_int @a [%i], affine_map<()[s0] -> (s0)> {max_val = 8 : i64, min_val = 1 : i64} : index
  return
}

// -----

func.func @count() {
  %a = symbol.symbolic_int @a {max_val = 8 : i64, min_val = 1 : i64} : index
  // expected-error@+1 {{'symbol.symbolic_int' op number of int symbols 1 doesn't match with affine map 2}}
  %b = symbol.symbolic_int @b [%a], affine_map<()[s0, s1] -> (s0 + s1)> {max_val = 8 : i64, min_val = 1 : i64} : index
  return
}
