// A pad whose value depends on the position has no HIVM op: an error at it.
// RUN: hivm-opt %s --convert-tensor-to-hivm -verify-diagnostics

func.func @ramp(%x: tensor<4xi32>) -> tensor<6xi32> {
  // expected-error @+1 {{failed to legalize operation 'tensor.pad' that was explicitly marked illegal}}
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    tensor.yield %v : i32
  } : tensor<4xi32> to tensor<6xi32>
  return %p : tensor<6xi32>
}
