// DIFF-ARGS: -one-shot-bufferize
// Tensor constants become private constant memref.globals at the start of
// the module, one per distinct value; taken names get _N from the symbol
// table's counter, which runs on across names.
func.func @f(%o: memref<4xf32>, %o2: memref<4xf32>, %o3: memref<f32>) {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = arith.constant dense<2.0> : tensor<4xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %z = arith.constant dense<7.0> : tensor<f32>
  %0 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %0 in writable %o : (tensor<4xf32>, memref<4xf32>) -> ()
  bufferization.materialize_in_destination %b in writable %o2 : (tensor<4xf32>, memref<4xf32>) -> ()
  bufferization.materialize_in_destination %z in writable %o3 : (tensor<f32>, memref<f32>) -> ()
  return
}
func.func @__constant_4xf32_0() {
  %d = arith.constant dense<5.0> : tensor<4xf32>
  %e = arith.constant dense<6.0> : tensor<4xf32>
  return
}
