// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed atomic read-modify-writes (this file gives the same
// diagnostics with mlir-opt 22).

func.func @float_kind_on_ints(%m: memref<4xi32>, %v: i32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'mulf' expects a floating-point type}}
  %0 = memref.atomic_rmw mulf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @int_kind_on_floats(%m: memref<4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'andi' expects an integer type}}
  %0 = memref.atomic_rmw andi %v, %m[%i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @subscripts(%m: memref<4x4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4x4xf32>) -> f32
  return
}

// -----

func.func @element_type(%m: memref<4xf16>, %v: f32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf16>) -> f32
  return
}

// -----

func.func @unknown_kind(%m: memref<4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori]}}
  %0 = memref.atomic_rmw subf %v, %m[%i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @two_arguments(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.generic_atomic_rmw' op expected single number of entry block arguments}}
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%a: f32, %b: f32):
    memref.atomic_yield %a : f32
  }
  return
}

// -----

func.func @argument_type(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.generic_atomic_rmw' op expected block argument of the same type result type}}
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%a: f64):
    %c = arith.constant 0.0 : f32
    memref.atomic_yield %c : f32
  }
  return
}

// -----

func.func @side_effect(%m: memref<4xf32>, %i: index) {
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%a: f32):
    // expected-error@+1 {{body of 'memref.generic_atomic_rmw' should contain only operations with no side effects}}
    memref.store %a, %m[%i] : memref<4xf32>
    memref.atomic_yield %a : f32
  }
  return
}

// -----

func.func @yield_type(%m: memref<4xf32>, %i: index) {
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%a: f32):
    %c = arith.constant 1 : i32
    // expected-error@+1 {{'memref.atomic_yield' op types mismatch between yield op: 'i32' and its parent: 'f32'}}
    memref.atomic_yield %c : i32
  }
  return
}

// -----

func.func @yield_outside(%v: f32) {
  // expected-error@+1 {{'memref.atomic_yield' op expects parent op 'memref.generic_atomic_rmw'}}
  memref.atomic_yield %v : f32
}
