// Types whose sizes overflow 64-bit arithmetic are located errors, never a
// crash: views spanning more than the memory, offsets that overflow.
// RUN: not hivm-run %s --entry l1 2>&1 | FileCheck %s --check-prefix=L1
// RUN: not hivm-run %s --entry ub 2>&1 | FileCheck %s --check-prefix=UB
// RUN: not hivm-run %s --entry rows --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not hivm-run %s --entry stride --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=STRIDE

// L1: huge-types.mlir:[[@LINE+3]]:9: error: L1 overflow: this view spans bytes [0, 9223372036854775807) but L1 holds {{[0-9]+}} bytes
func.func @l1() {
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<4611686018427387904x1x16x16xf16, #hivm.address_space<cbuf>>
  return
}

// UB: huge-types.mlir:[[@LINE+3]]:8: error: UB overflow: this view spans bytes [0, 9223372036854775807) but UB holds {{[0-9]+}} bytes
func.func @ub() {
  %z = arith.constant 0 : i64
  %u = hivm.hir.pointer_cast(%z) : memref<4611686018427387904x16xf16, #hivm.address_space<ub>>
  return
}

// ROWS: huge-types.mlir:[[@LINE+5]]:8: error: index [4611686018427387903, 0] lies outside the memref's buffer (its offset overflows)
func.func @rows(%g: memref<16xf32>) {
  %r = memref.reinterpret_cast %g to offset: [0], sizes: [4611686018427387904, 4], strides: [4, 1] : memref<16xf32> to memref<4611686018427387904x4xf32>
  %c0 = arith.constant 0 : index
  %c = arith.constant 4611686018427387903 : index
  %v = memref.load %r[%c, %c0] : memref<4611686018427387904x4xf32>
  return
}

// STRIDE: huge-types.mlir:[[@LINE+4]]:8: error: index [1] lies outside the memref's buffer (its offset overflows)
func.func @stride(%g: memref<16xf32>) {
  %r = memref.reinterpret_cast %g to offset: [9223372036854775807], sizes: [2], strides: [9223372036854775807] : memref<16xf32> to memref<2xf32, strided<[9223372036854775807], offset: 9223372036854775807>>
  %c1 = arith.constant 1 : index
  %v = memref.load %r[%c1] : memref<2xf32, strided<[9223372036854775807], offset: 9223372036854775807>>
  return
}
