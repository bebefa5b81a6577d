// RUN: hivm-opt %s --split-input-file --hivm-infer-mem-scope -verify-diagnostics

// A buffer reaching an op that makes a new memref from it in a way the
// pass cannot follow.
func.func @unknown_user() attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<16xf32>
  // expected-error @+1 {{'test.remake' op Unsupported user for root alloc op.}}
  %r = "test.remake"(%a) : (memref<16xf32>) -> memref<16xf32>
  return
}

// -----

// A scaled matmul before bufferization.
func.func @tensors(%a: tensor<32x32xf8E4M3FN>, %s: tensor<2xui8>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  // expected-error @+1 {{'hivm.hir.mmadmxL1' op Run infer memory scope after bufferization.}}
  %r = hivm.hir.mmadmxL1 ins(%a, %a, %s, %s, %true, %c32, %c32, %c32 : tensor<32x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<2xui8>, tensor<2xui8>, i1, index, index, index) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
