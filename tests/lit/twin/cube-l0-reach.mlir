// L0A/L0B/L0C are the cube unit's own: a vector op, a DMA or a scalar
// access there has no hardware path, and run anyway it would read L0C's
// fractal bytes in row-major order. Each is a located error. So is a 2-d
// view of part of an L0C accumulator, which is not a matrix of its own in
// L0C's fractal order.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 32x32 range:0:1:9
// RUN: not hivm-run %s --entry vec --sync-solver --arg %t.a.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: not hivm-run %s --entry dma --sync-solver --arg %t.a.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=DMA
// RUN: not hivm-run %s --entry scalar --sync-solver --arg %t.a.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not hivm-run %s --entry rows --sync-solver --arg %t.a.npy --arg zeros:16x32xf32 2>&1 | FileCheck %s --check-prefix=ROWS
// VEC: cube-l0-reach.mlir:{{[0-9]+}}:3: error: 'hivm.hir.vadd' cannot reach L0C: only the cube unit's L1 -> L0 loads, matmul and fixpipe do
// DMA: error: 'hivm.hir.store' cannot reach L0C
// RUN: not hivm-run %s --entry scalar_loop --arg zeros:256xf32 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: error: a scalar load cannot reach L0C
// ROWS: error: fixpipe: the source: a 16 x 32 view of part of an L0C buffer: L0C holds its buffer as 16 x 16 fractals, so only the whole buffer (or a 4-d fractal view) is a matrix

func.func @vec(%a: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x32xf32>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32>)
  hivm.hir.vadd ins(%acc, %acc : memref<32x32xf32>, memref<32x32xf32>) outs(%acc : memref<32x32xf32>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<32x32xf32>) outs(%c : memref<32x32xf32>)
  return
}

func.func @dma(%a: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<32x32xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
  hivm.hir.store ins(%acc : memref<32x32xf32, #hivm.address_space<cc>>) outs(%c : memref<32x32xf32>)
  return
}

func.func @scalar(%a: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<32x32xf32, #hivm.address_space<cc>>
  %v = memref.load %acc[%c0, %c0] : memref<32x32xf32, #hivm.address_space<cc>>
  memref.store %v, %c[%c0, %c0] : memref<32x32xf32>
  return
}

func.func @rows(%a: memref<32x32xf16>, %c: memref<16x32xf32>) {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x32xf32>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32>)
  %hi = memref.subview %acc[16, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: 512>>
  hivm.hir.fixpipe {enable_nz2nd} ins(%hi : memref<16x32xf32, strided<[32, 1], offset: 512>>) outs(%c : memref<16x32xf32>)
  return
}

// In a loop, which the twin compiles, as well.
func.func @scalar_loop(%c: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<256xf32, #hivm.address_space<cc>>
  scf.for %i = %c0 to %c256 step %c1 {
    %v = memref.load %acc[%i] : memref<256xf32, #hivm.address_space<cc>>
    memref.store %v, %c[%i] : memref<256xf32>
  }
  return
}
