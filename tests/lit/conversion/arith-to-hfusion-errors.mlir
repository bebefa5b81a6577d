// Arith ops on tensors that convert-arith-to-hfusion has no named op for are
// errors at the op (upstream's partial conversion fails there), never left
// half-converted.
// RUN: hivm-opt %s --split-input-file --convert-arith-to-hfusion -verify-diagnostics

// A dynamic size: the destination cannot be created.
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{failed to legalize operation 'arith.addf' that was explicitly marked illegal}}
  %0 = arith.addf %a, %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// index_cast has no elementwise counterpart.
func.func @index_cast(%a: tensor<4xi32>) -> tensor<4xindex> {
  // expected-error @+1 {{failed to legalize operation 'arith.index_cast' that was explicitly marked illegal}}
  %0 = arith.index_cast %a : tensor<4xi32> to tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

// f32 -> f64 is not a conversion the hardware makes.
func.func @truncf(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{unsupported datatype for arith.extf to hfusion: f32 to f64}}
  %0 = arith.extf %a : tensor<4xf32> to tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// fp8 conversions exist on register-based targets only.
func.func @fp8(%a: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{unsupported datatype for arith.truncf to hfusion: f32 to f8E4M3FN}}
  %0 = arith.truncf %a : tensor<4xf32> to tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// `ord` has no compare function.
func.func @ord(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{unsupported arith cmp predicate to hfusion: ord}}
  %0 = arith.cmpf ord, %a, %a : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

// A splat constant of a vector type is no tensor to fill.
func.func @vector_splat() -> vector<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'arith.constant' that was explicitly marked illegal}}
  %0 = arith.constant dense<1.0> : vector<4xf32>
  return %0 : vector<4xf32>
}
