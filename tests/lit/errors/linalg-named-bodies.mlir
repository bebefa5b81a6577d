// A named op whose body cannot be built for its types fails where its
// syntax starts, in mlir-opt's words.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @bools(%a: tensor<4xi1>) {
  // CHECK: [[@LINE+1]]:19: error: custom op 'linalg.sub' unsupported operation: sub with bools
  %0 = linalg.sub ins(%a, %a : tensor<4xi1>, tensor<4xi1>) outs(%a : tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @ints(%a: tensor<4xi32>) {
  // CHECK: [[@LINE+1]]:19: error: custom op 'linalg.exp' unsupported non numeric type
  %0 = linalg.exp ins(%a : tensor<4xi32>) outs(%a : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @float_xor(%x: tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:32: error: custom op 'hfusion.elemwise_binary' unsupported type for vxor: f32
  %0 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<vxor>} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @math_ext(%x: tensor<4xi32>) {
  // CHECK: [[@LINE+1]]:32: error: custom op 'hfusion.elemwise_binary' unsupported type for divfhp: i32
  %0 = hfusion.elemwise_binary {fun = #hfusion.binary_fn<divfhp>} ins(%x, %x : tensor<4xi32>, tensor<4xi32>) outs(%x : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @vectors(%m: tensor<3xvector<4xf32>>) {
  // CHECK: [[@LINE+1]]:19: error: custom op 'linalg.add' Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got 'vector<4xf32>' and 'vector<4xf32>'
  %0 = linalg.add ins(%m, %m : tensor<3xvector<4xf32>>, tensor<3xvector<4xf32>>) outs(%m : tensor<3xvector<4xf32>>) -> tensor<3xvector<4xf32>>
  return
}

// -----

// A body yielding another type than the init's element (MLIR builds it and
// its verifier rejects it; the body's ops have unknown locations).
func.func @mixed(%a: tensor<2xf16>, %b: tensor<2xf32>) {
  // CHECK: <unknown>:0: error: 'linalg.yield' op type of yield operand 1 ('f16') doesn't match the element type of the enclosing linalg.generic op ('f32')
  %0 = linalg.sub ins(%a, %a : tensor<2xf16>, tensor<2xf16>) outs(%b : tensor<2xf32>) -> tensor<2xf32>
  return
}
