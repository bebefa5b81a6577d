// L0C typed before the layout is fixed (as upstream's solver tests type
// it): a matmul's accumulator allocated without a memory space lives in
// L0C, as bishengir's memory-scope inference puts it, and a 2-d M x N L0C
// buffer holds what L0C always holds, the 16 x 16 fractals
// [N/16, M/16, 16, 16]. So the result reads the same through the 2-d type
// and through a fractal view of the same bytes.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 32x32 range:0:1:9
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x32 range:1:1:7
// RUN: hivm-run %s --entry nd_acc --sync-solver --arg %t.a.npy --arg %t.b.npy --arg zeros:32x32xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: hivm-run %s --entry nd_acc_fractal_read --sync-solver --arg %t.a.npy --arg %t.b.npy --arg zeros:32x32xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: not hivm-run %s --entry partial_fractal --sync-solver --arg %t.a.npy --arg %t.b.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=PARTIAL
// numpy: (A @ B)[0][:3] and [31][-3:].
// CHECK: arg 2 (memref<32x32xf32>): {{\[}}[493, 492, 456, 427,
// CHECK: 545, 512, 486]]
// PARTIAL: error: mmadL1: C: a 2-d L0C matrix is read as the 16 x 16 fractals L0C holds, which needs whole fractals in a contiguous buffer, not 24 x 32 with strides [32, 1]
func.func @nd_acc(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x32xf32>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<32x32xf32>) outs(%c : memref<32x32xf32>)
  return
}

func.func @nd_acc_fractal_read(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<32x32xf32, #hivm.address_space<cc>>
  %view = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%view : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<32x32xf32>)
  return
}

func.func @partial_fractal(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %true = arith.constant true
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<24x32xf32>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c24, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<24x32xf32>)
  return
}
