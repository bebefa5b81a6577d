// Math on tensors that convert-math-to-hfusion cannot convert is an error at the op.
// RUN: hivm-opt %s --split-input-file --convert-math-to-hfusion -verify-diagnostics

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{failed to legalize operation 'math.exp' that was explicitly marked illegal}}
  %0 = math.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// No named op computes a cube root.
func.func @cbrt(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'math.cbrt' that was explicitly marked illegal}}
  %0 = math.cbrt %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Register-based targets have no atan2 function.
module attributes {hacc.target = #hacc.target<"Ascend950PR_957b">} {
  func.func @atan2(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{failed to legalize operation 'math.atan2' that was explicitly marked illegal}}
    %0 = math.atan2 %a, %a : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

