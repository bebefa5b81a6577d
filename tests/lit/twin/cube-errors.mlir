// Cube ops the twin cannot run as written are located errors, never a
// guess: operands without the fractal layout the cube unit needs, fractals
// of the wrong shape, sizes outside the operands, layouts fixpipe's mode
// does not write.
// RUN: not hivm-run %s --entry nd_operand --arg zeros:16x16xf16 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not hivm-run %s --entry bad_fractal --arg zeros:16x16xf16 2>&1 | FileCheck %s --check-prefix=FRACTAL
// RUN: not hivm-run %s --entry too_much_k --arg zeros:16x16xf16 2>&1 | FileCheck %s --check-prefix=REALK
// A 1-d operand too small for the real sizes (as some solver tests write them).
// RUN: not hivm-run %s --entry flat_too_small 2>&1 | FileCheck %s --check-prefix=FLAT
// RUN: not hivm-run %s --entry f16_acc --arg zeros:16x16xf16 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: not hivm-run %s --entry nz2nd_fractal --arg zeros:1x1x16x16xf32 2>&1 | FileCheck %s --check-prefix=NZ2ND
// RUN: not hivm-run %s --entry too_big --arg zeros:32x16xf32 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not hivm-run %s --entry l0c_16x8 --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=L0C8
// RUN: not hivm-run %s --entry src_too_big --arg zeros:32x32xf16 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: not hivm-run %s --entry bad_ids --arg zeros:16x16xf16 2>&1 | FileCheck %s --check-prefix=IDS

// ND: cube-errors.mlir:[[@LINE+7]]:3: error: mmadL1: A must be 4-d (a fractal [col blocks, row blocks, rows, cols] memref), not rank 2
func.func @nd_operand(%a: memref<16x16xf16>) {
  %t = arith.constant true
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%l1, %l1, %t, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  return
}

// FRACTAL: cube-errors.mlir:[[@LINE+4]]:3: error: nd2nz: the destination's fractal is 16 x 8 f16, but L1 fractals are 16 x 16 for f16 (16 rows of 32 bytes)
func.func @bad_fractal(%a: memref<16x16xf16>) {
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<2x1x16x8xf16, #hivm.address_space<cbuf>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x16xf16>) outs(%l1 : memref<2x1x16x8xf16, #hivm.address_space<cbuf>>)
  return
}

// REALK: cube-errors.mlir:[[@LINE+8]]:3: error: mmadL1: real_k = 32 is outside the operands (A is 16 x 16, B is 16 x 16, C is 16 x 16)
func.func @too_much_k(%a: memref<16x16xf16>) {
  %t = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%l1, %l1, %t, %c16, %c32, %c16 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  return
}

// FLAT: cube-errors.mlir:[[@LINE+8]]:3: error: mmadL1: A holds 16 elements, but real_m x real_k = 16 x 256 needs 4096: the operand is too small for the matrix the op multiplies
func.func @flat_too_small() {
  %t = arith.constant true
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<16xf32, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<256xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%l1, %l1, %t, %c16, %c256, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256xf32, #hivm.address_space<cc>>)
  return
}

// ACC: cube-errors.mlir:[[@LINE+7]]:3: error: mmadL1: f16 x f16 into f16 is not a cube multiplication (f16/bf16/f32 into f32, i8 into i32)
func.func @f16_acc(%a: memref<16x16xf16>) {
  %t = arith.constant true
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%l1, %l1, %t, %c16, %c16, %c16 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf16, #hivm.address_space<cc>>)
  return
}

// NZ2ND: cube-errors.mlir:[[@LINE+4]]:3: error: fixpipe: with dma_mode = nz2nd, the destination must be 2-d (ND), not a fractal
func.func @nz2nd_fractal(%out: memref<1x1x16x16xf32>) {
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%out : memref<1x1x16x16xf32>)
  return
}

// BIG: cube-errors.mlir:[[@LINE+4]]:3: error: fixpipe: the 32 x 16 destination is larger than the 16 x 16 source matrix
func.func @too_big(%out: memref<32x16xf32>) {
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%out : memref<32x16xf32>)
  return
}

// L0C is tiled 16 x 16: read as 16 x 8 fractals, its elements would land
// elsewhere.
// L0C8: cube-errors.mlir:[[@LINE+4]]:3: error: fixpipe: the source's fractal is 16 x 8, but L0C fractals are 16 x 16
func.func @l0c_16x8(%out: memref<16x16xf32>) {
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x16x8xf32, #hivm.address_space<cc>>
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x1x16x8xf32, #hivm.address_space<cc>>) outs(%out : memref<16x16xf32>)
  return
}

// SRC: cube-errors.mlir:[[@LINE+4]]:3: error: nd2nz: the 32 x 32 source does not fit the destination's 16 x 32 fractal matrix
func.func @src_too_big(%a: memref<32x32xf16>) {
  %z = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  return
}

// IDS: cube-errors.mlir:[[@LINE+9]]:3: error: mmadL1: sync_related_args #0 is 9, not an event id (0..7) or -1
func.func @bad_ids(%a: memref<16x16xf16>) {
  %t = arith.constant true
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i64
  %nine = arith.constant 9 : i64
  %none = arith.constant -1 : i64
  %l1 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%l1, %l1, %t, %c16, %c16, %c16 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) sync_related_args(%nine, %none, %none, %none, %none, %none, %none : i64, i64, i64, i64, i64, i64, i64)
  return
}
