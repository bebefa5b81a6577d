// Vector forms the twin does not compute yet are located errors, not guesses.
// RUN: not hivm-run %s --entry unsigned_max --arg zeros:16xi32 --arg zeros:16xi32 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: not hivm-run %s --entry compare --arg zeros:16xi32 --arg zeros:16xi32 --arg zeros:16xi8 2>&1 | FileCheck %s --check-prefix=CMP

// MAX: unsupported-vector.mlir:[[@LINE+2]]:3: error: hivm.hir.vmax with is_signed = false is not supported by the CPU twin yet
func.func @unsigned_max(%a: memref<16xi32>, %b: memref<16xi32>) {
  hivm.hir.vmax ins(%a, %b : memref<16xi32>, memref<16xi32>) outs(%a : memref<16xi32>) is_signed = false
  return
}

// CMP: unsupported-vector.mlir:[[@LINE+2]]:3: error: hivm.hir.vcmp is not supported by the CPU twin yet
func.func @compare(%a: memref<16xi32>, %b: memref<16xi32>, %m: memref<16xi8>) {
  hivm.hir.vcmp ins(%a, %b : memref<16xi32>, memref<16xi32>) outs(%m : memref<16xi8>)
  return
}
