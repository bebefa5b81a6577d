// Ops the bufferizer does not handle are located errors, not silent output.
// RUN: not hivm-opt %s -one-shot-bufferize -split-input-file 2>&1 | FileCheck %s
// RUN: not hivm-opt %s -one-shot-bufferize="allow-return-allocs-from-loops" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: one-shot-bufferize: option 'allow-return-allocs-from-loops' is not supported yet
// RUN: not hivm-opt %S/Inputs/tensor-call.mlir -one-shot-bufferize="bufferize-function-boundaries" 2>&1 | FileCheck %s --check-prefix=CALL
// CALL: tensor-call.mlir:3:1: error: 'func.func' op is part of a recursive call chain (not supported by hivm-opt's one-shot-bufferize yet)

// CHECK: bufferize-errors.mlir:[[@LINE+3]]:8: error: 'tensor.extract_slice' op slices a buffer without a strided layout (not supported by hivm-opt's one-shot-bufferize yet)
func.func @not_strided(%m: memref<2x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x4xf32, affine_map<(d0, d1) -> (d1, d0)>> to tensor<2x4xf32>
  %s = tensor.extract_slice %t[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %i = arith.constant 0 : index
  %x = tensor.extract %s[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// A while loop must forward and yield its arguments' own buffers.
// CHECK: bufferize-errors.mlir:[[@LINE+7]]:5: error: Condition arg #1 is not equivalent to the corresponding iter bbArg
func.func @while_condition(%m: memref<8xf32>, %n: index) {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %c = arith.cmpi slt, %i, %n : index
    %e = tensor.empty() : tensor<8xf32>
    scf.condition(%c) %i, %e : index, tensor<8xf32>
  } do {
  ^bb0(%j: index, %b: tensor<8xf32>):
    scf.yield %j, %b : index, tensor<8xf32>
  }
  return
}

// -----

// A loop must yield its iter_arg's own buffer, in upstream's words.
// CHECK: bufferize-errors.mlir:[[@LINE+7]]:5: error: Yield operand #1 is not equivalent to the corresponding iter bbArg
// CHECK: note: see current operation: "scf.yield"(%arg4, %1)
func.func @swapped(%m: memref<8xf32>, %p: memref<8xf32>, %n: index) {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %u = bufferization.to_tensor %p restrict writable : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %r:2 = scf.for %i = %c0 to %n step %n iter_args(%a = %t, %b = %t) -> (tensor<8xf32>, tensor<8xf32>) {
    scf.yield %a, %u : tensor<8xf32>, tensor<8xf32>
  }
  return
}

// -----

// CHECK: bufferize-errors.mlir:[[@LINE+3]]:8: error: 'tensor.cast' op casts to an unranked tensor (not supported by hivm-opt's one-shot-bufferize yet)
func.func @unranked(%m: memref<4xf32>, %f: f32) {
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %p = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  return
}
