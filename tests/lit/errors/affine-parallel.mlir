// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed affine.parallel bands and index (de)linearizations (this file
// gives the same diagnostics with mlir-opt 22).

func.func @symbolic_step(%n: index) {
  // expected-error@+1 {{custom op 'affine.parallel' steps must be constant integers}}
  affine.parallel (%i) = (0) to (10) step (%n) {
  }
  return
}

// -----

func.func @unknown_reduction() {
  // expected-error@+1 {{custom op 'affine.parallel' invalid reduction value: "addz"}}
  %0 = affine.parallel (%i) = (0) to (10) reduce ("addz") -> (f32) {
  }
  return
}

// -----

func.func @reduction_type() {
  // expected-error@+1 {{'affine.parallel' op result type cannot match reduction attribute}}
  %0 = affine.parallel (%i) = (0) to (10) reduce ("addf") -> (i32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}

// -----

func.func @missing_reduction() {
  // expected-error@+1 {{'affine.parallel' op a reduction must be specified for each output}}
  %0 = affine.parallel (%i) = (0) to (10) -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}

// -----

func.func @bounds_count() {
  // expected-error@+1 {{'affine.parallel' op the number of region arguments (2) and the number of map groups for lower (1) and upper bound (2), and the number of steps (2) must all match}}
  affine.parallel (%i, %j) = (0) to (10, 10) {
  }
  return
}

// -----

func.func @yield_type() {
  %0 = affine.parallel (%i) = (0) to (10) reduce ("maximumf") -> (f32) {
    %c = arith.constant 0.0 : f64
    // expected-error@+1 {{'affine.yield' op types mismatch between yield op and its parent}}
    affine.yield %c : f64
  }
  return
}

// -----

func.func @delinearize_results(%i: index, %b: index) {
  // expected-error@+1 {{'affine.delinearize_index' op should return an index for each basis element and up to one extra index}}
  %0:4 = affine.delinearize_index %i into (%b, 3) : index, index, index, index
  return
}

// -----

func.func @delinearize_zero(%i: index) {
  // expected-error@+1 {{'affine.delinearize_index' op no basis element may be statically non-positive}}
  %0:2 = affine.delinearize_index %i into (0, 3) : index, index
  return
}

// -----

func.func @delinearize_dynamic_count(%i: index) {
  // expected-error@+1 {{'affine.delinearize_index' op mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite}}
  %0:2 = "affine.delinearize_index"(%i) <{static_basis = array<i64: -9223372036854775808, 4>}> : (index) -> (index, index)
  return
}

// -----

func.func @linearize_basis(%i: index, %b: index) {
  // expected-error@+1 {{'affine.linearize_index' op should be passed a basis element for each index except possibly the first}}
  %0 = affine.linearize_index [%i, %i, %i] by (%b) : index
  return
}
