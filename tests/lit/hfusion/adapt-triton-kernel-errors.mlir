// Library calls whose constant operands are not constants, and kernel
// attributes naming arguments that do not exist, are errors at the op.
// RUN: hivm-opt %s --split-input-file --adapt-triton-kernel -verify-diagnostics

func.func private @triton_gather_0(tensor<2x8xf32>, tensor<2x3xi32>, i32) -> tensor<2x3xf32>
func.func @axis(%s: tensor<2x8xf32>, %i: tensor<2x3xi32>, %axis: i32) -> tensor<2x3xf32> {
  // expected-error @+1 {{Failed to extract the value of arith.constant defining the gather axis.}}
  %g = func.call @triton_gather_0(%s, %i, %axis) : (tensor<2x8xf32>, tensor<2x3xi32>, i32) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

// -----

func.func private @triton_cumsum_0(tensor<8xf32>, i32, i1) -> tensor<8xf32>
func.func @reverse(%s: tensor<8xf32>, %r: i1) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{Failed to extract the value of arith.constant defining the reverse.}}
  %g = func.call @triton_cumsum_0(%s, %c0, %r) : (tensor<8xf32>, i32, i1) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// expected-error @+1 {{'WorkspaceArgIdx' is 3 but the kernel has 1 arguments}}
func.func @bad_index(%a: memref<?xi8>) attributes {WorkspaceArgIdx = 3 : i64, global_kernel = ""} {
  return
}
