// Every linalg and hfusion op must become a HIVM op; one no pattern takes,
// or one of a kind HIVM has no op for, is an error at the op.
// RUN: hivm-opt %s --split-input-file --convert-hfusion-to-hivm -verify-diagnostics
// RUN: not hivm-opt %s --convert-hfusion-to-hivm="mm-map-mode=fast" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: unknown option 'mm-map-mode=fast' for convert-hfusion-to-hivm

// Batched matmuls are not converted (upstream converts them only to local
// matmuls, in the macro_instr mode).
func.func @batch_matmul(%a: tensor<2x4x8xf16>, %b: tensor<2x8x2xf16>, %c: tensor<2x4x2xf16>) -> tensor<2x4x2xf16> {
  // expected-error @+1 {{failed to legalize operation 'linalg.batch_matmul' that was explicitly marked illegal}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<2x8x2xf16>) outs(%c : tensor<2x4x2xf16>) -> tensor<2x4x2xf16>
  return %r : tensor<2x4x2xf16>
}

// -----

func.func @ceil(%a: memref<16xf32>, %o: memref<16xf32>) {
  // expected-error @+1 {{'linalg.elemwise_unary' op has unsupported linalg unary operation kind 'ceil'}}
  linalg.elemwise_unary {fun = #linalg.unary_fn<ceil>} ins(%a : memref<16xf32>) outs(%o : memref<16xf32>)
  return
}

// -----

// NaN-ignoring minimum has no vector op; convert-hfusion-to-hivm expects it
// decomposed first.
func.func @minnumf(%a: memref<16xf32>, %o: memref<16xf32>) {
  // expected-error @+1 {{'hfusion.elemwise_binary' op has unsupported hfusion binary operation kind 'minnumf'}}
  hfusion.elemwise_binary {fun = #hfusion.binary_fn<minnumf>} ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%o : memref<16xf32>)
  return
}

// -----

func.func @subtracting_reduction(%a: tensor<4x8xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.reduce' op has an unsupported reduce operation}}
  %r = linalg.reduce { arith.subf } ins(%a : tensor<4x8xf32>) outs(%o : tensor<4xf32>) dimensions = [1]
  return %r : tensor<4xf32>
}

// -----

// A pattern that refuses an op says why; the conversion then reports the op
// as not legalized, as MLIR's does.
func.func @bitcast_buffer(%a: memref<16xi32>, %o: memref<16xf32>) {
  // expected-error @+2 {{hfusion.bitcast must be in Pure Tensor Semantics}}
  // expected-error @+1 {{failed to legalize operation 'hfusion.bitcast' that was explicitly marked illegal}}
  hfusion.bitcast ins(%a : memref<16xi32>) outs(%o : memref<16xf32>)
  return
}

// -----

// Compare-and-swap stores have no HIVM atomic kind that reads back as one.
func.func @cas_store(%a: memref<16xi32>, %o: memref<16xi32>) {
  // expected-error @+1 {{'hfusion.store' op has unsupported atomic kind 'cas'}}
  hfusion.store {atomic_kind = #hfusion.atomic_kind<cas>} ins(%a : memref<16xi32>) outs(%o : memref<16xi32>)
  return
}

// -----

func.func @gather_rows(%t: tensor<32x4xf32>, %i: tensor<8x4xi32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  // expected-error @+2 {{can only lower hfusion.gather to hivm gather if axis is last dim}}
  // expected-error @+1 {{failed to legalize operation 'hfusion.gather' that was explicitly marked illegal}}
  %g = hfusion.gather ins(%t, %i : tensor<32x4xf32>, tensor<8x4xi32>) outs(%e : tensor<8x4xf32>) axis = 0 -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}

// -----

// Local matmuls (macro_instr mode) are not built yet.
// RUN: not hivm-opt %s --split-input-file --convert-hfusion-to-hivm="mm-map-mode=macro_instr" 2>&1 | FileCheck %s --check-prefix=MACRO
// MACRO: error: failed to legalize operation 'linalg.matmul' that was explicitly marked illegal
func.func @local_matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
