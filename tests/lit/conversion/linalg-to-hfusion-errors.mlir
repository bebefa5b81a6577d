// Every linalg.map and linalg.generic (and every marked linalg.reduce) must
// become an hfusion op; one that matches no pattern is an error at the op.
// RUN: hivm-opt %s --split-input-file --convert-linalg-to-hfusion -verify-diagnostics

// An elementwise generic is not one of the forms converted.
#id = affine_map<(d0) -> (d0)>
func.func @plain_generic(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{failed to legalize operation 'linalg.generic' that was explicitly marked illegal}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A library function without a named op.
func.func private @__hmf_cbrtf(f32) -> f32
func.func @unknown_call(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{failed to legalize operation 'linalg.map' that was explicitly marked illegal}}
  %r = linalg.map { func.call {callee = @__hmf_cbrtf} } ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>)
  return %r : tensor<8xf32>
}

// -----

// rint is converted on register-based targets only.
func.func private @__hmf_rintf(f32) -> f32
func.func @rint(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{failed to legalize operation 'linalg.map' that was explicitly marked illegal}}
  %r = linalg.map { func.call {callee = @__hmf_rintf} } ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>)
  return %r : tensor<8xf32>
}

// -----

// A named op's body must be buildable: relu of two inputs is not.
func.func private @__hmf_reluf(f32, f32) -> f32
func.func @relu_two(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{cannot convert 'linalg.map' to 'hfusion.elemwise_unary': 'hfusion.elemwise_unary' expects 2 operands, got 3}}
  %r = linalg.map { func.call {callee = @__hmf_reluf} } ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>)
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @bad_atomic(%d: memref<8xi32>, %v: memref<8xi32>) {
  // expected-error @+1 {{'linalg.generic' op unsupported atomic operation: fsub}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %v : memref<8xi32>, memref<8xi32>) outs(%d : memref<8xi32>) attrs = {GenericAtomicRMW = "fsub"} {
  ^bb0(%a: i32, %b: i32, %o: i32):
    linalg.yield %b : i32
  }
  return
}

// -----

// An arg-reduction must say how ties break.
func.func @no_tie_break(%v: tensor<4x16xf32>, %i: tensor<4x16xi32>, %bv: tensor<4xf32>, %bi: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'linalg.reduce' that was explicitly marked illegal}}
  %r:2 = linalg.reduce ins(%v, %i : tensor<4x16xf32>, tensor<4x16xi32>) outs(%bv, %bi : tensor<4xf32>, tensor<4xi32>) dimensions = [1] {reduce_mode = "max_with_index"}
    (%a: f32, %ai: i32, %b: f32, %bi2: i32) {
      %gt = arith.cmpf ogt, %a, %b : f32
      %x = arith.select %gt, %a, %b : f32
      %y = arith.select %gt, %ai, %bi2 : i32
      linalg.yield %x, %y : f32, i32
    }
  return %r#0 : tensor<4xf32>
}
