// DIFF-ARGS: -one-shot-bufferize -split-input-file
// scf.while carrying tensors: both regions' arguments become the operand
// buffers (copied when the operand is read-only or read after the loop).
func.func @w(%m: memref<8xf32>, %n: index, %f: f32) {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %a : index, tensor<8xf32>
  } do {
  ^bb0(%j: index, %b: tensor<8xf32>):
    %x = tensor.insert %f into %b[%j] : tensor<8xf32>
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %x : index, tensor<8xf32>
  }
  bufferization.materialize_in_destination %r#1 in writable %m : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}
// -----
func.func @readafter(%m: memref<8xf32>, %n: index, %f: f32) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %x = tensor.extract %a[%c0] : tensor<8xf32>
    %y = arith.addf %x, %f : f32
    %b = tensor.insert %y into %a[%c0] : tensor<8xf32>
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %b : index, tensor<8xf32>
  } do {
  ^bb0(%j: index, %b: tensor<8xf32>):
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %b : index, tensor<8xf32>
  }
  %v = tensor.extract %t[%c0] : tensor<8xf32>
  %w = tensor.extract %r#1[%c0] : tensor<8xf32>
  %s = arith.addf %v, %w : f32
  return %s : f32
}
// -----
func.func @ro(%t: tensor<8xf32>, %n: index, %f: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %a : index, tensor<8xf32>
  } do {
  ^bb0(%j: index, %b: tensor<8xf32>):
    %x = tensor.insert %f into %b[%j] : tensor<8xf32>
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %x : index, tensor<8xf32>
  }
  %w = tensor.extract %r#1[%c0] : tensor<8xf32>
  return %w : f32
}
