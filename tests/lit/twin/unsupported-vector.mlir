// Vector forms the twin does not compute yet are located errors, not guesses.
// RUN: not hivm-run %s --entry unsigned_max --arg zeros:16xi32 --arg zeros:16xi32 2>&1 | FileCheck %s --check-prefix=MAX

// MAX: unsupported-vector.mlir:[[@LINE+2]]:3: error: hivm.hir.vmax with is_signed = false is not supported by the CPU twin yet
func.func @unsigned_max(%a: memref<16xi32>, %b: memref<16xi32>) {
  hivm.hir.vmax ins(%a, %b : memref<16xi32>, memref<16xi32>) outs(%a : memref<16xi32>) is_signed = false
  return
}

// RUN: not hivm-run %s --entry transposed_add --arg zeros:4x4x8xf32 --arg zeros:4x4x8xf32 2>&1 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: not hivm-run %s --entry padded_load --arg zeros:16xf32 --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: not hivm-run %s --entry atomic_store --arg zeros:16xf32 --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=ATOMIC

// TRANSPOSE: unsupported-vector.mlir:[[@LINE+2]]:3: error: hivm.hir.vadd with a transpose is not supported by the CPU twin yet
func.func @transposed_add(%a: memref<4x4x8xf32>, %b: memref<4x4x8xf32>) {
  hivm.hir.vadd ins(%a, %b : memref<4x4x8xf32>, memref<4x4x8xf32>) outs(%a : memref<4x4x8xf32>) transpose = [1, 0, 2]
  return
}

// PAD: unsupported-vector.mlir:[[@LINE+4]]:3: error: hivm.hir.load with padding elements is not supported by the CPU twin yet
func.func @padded_load(%g: memref<16xf32>, %u: memref<16xf32>) {
  %c = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  hivm.hir.load ins(%g : memref<16xf32>) outs(%u : memref<16xf32>) pad_mode = <PadValue> pad_value = %c : f32 left_padding_num = %two : index
  return
}

// ATOMIC: unsupported-vector.mlir:[[@LINE+2]]:3: error: hivm.hir.store with an atomic kind is not supported by the CPU twin yet
func.func @atomic_store(%u: memref<16xf32>, %g: memref<16xf32>) {
  hivm.hir.store ins(%u : memref<16xf32>) outs(%g : memref<16xf32>) atomic = <add>
  return
}
