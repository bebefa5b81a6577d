// DIFF-ARGS: -convert-elementwise-to-linalg -split-input-file
// arith and math ops on ranked tensors become linalg.generic: outs reuse the
// first operand of the result's type, else a tensor.empty (tensor.dim for
// dynamic sizes); scalar operands get an empty map; casts, compares and
// selects keep their attributes in the body.

func.func @chain(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>, %c: tensor<4x?xi32>) -> (tensor<4x?xf32>, tensor<4x?xi1>) {
  %0 = arith.addf %a, %b fastmath<fast> : tensor<4x?xf32>
  %1 = math.exp %0 : tensor<4x?xf32>
  %2 = arith.cmpf olt, %1, %a : tensor<4x?xf32>
  %3 = arith.sitofp %c : tensor<4x?xi32> to tensor<4x?xf32>
  %4 = arith.select %2, %3, %1 : tensor<4x?xi1>, tensor<4x?xf32>
  return %4, %2 : tensor<4x?xf32>, tensor<4x?xi1>
}

// -----

func.func @scalar_condition(%c: i1, %a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  %0 = arith.select %c, %a, %b : tensor<8xi32>
  %1 = arith.muli %0, %a overflow<nsw> : tensor<8xi32>
  %2 = math.absi %1 : tensor<8xi32>
  return %2 : tensor<8xi32>
}

// -----

func.func @rank0_and_loops(%a: tensor<f32>, %n: index, %t: tensor<2x3xf16>) -> (tensor<f32>, tensor<2x3xf16>) {
  %0 = math.sqrt %a : tensor<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<2x3xf16>) {
    %s = arith.addf %acc, %t : tensor<2x3xf16>
    %e = arith.extf %s : tensor<2x3xf16> to tensor<2x3xf32>
    %q = math.rsqrt %e : tensor<2x3xf32>
    %f = arith.truncf %q : tensor<2x3xf32> to tensor<2x3xf16>
    scf.yield %f : tensor<2x3xf16>
  }
  return %0, %r : tensor<f32>, tensor<2x3xf16>
}
