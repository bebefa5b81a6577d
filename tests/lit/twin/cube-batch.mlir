// hivm.hir.batchMmadL1 at memref level: A, B and C carry a leading batch
// dimension over the fractal matrices mmadL1 takes, and each batch is one
// mmadL1 on its slices (upstream tiles the op into that loop). Two batches
// of A (16 x 32) and B (32 x 16), A[i] = (i % 7), B[i] = 1 + (i % 5) over
// the flat index. @bmm starts C from A @ B, then accumulates
// (init_condition false) A @ A^T, B given transposed as a second L1 copy of
// A; numpy's float64 A @ B + A @ A.transpose(0, 2, 1) gives the rows below.
// @bias starts from a per-batch bias [2, 16], bias[i] = -8 + (3i % 37):
// numpy's A @ B + bias[:, None, :]. The sums are exact in f32.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 2x16x32 range:0:1:7
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 2x32x16 range:1:1:5
// RUN: python3 %root/scripts/npy.py %t.bias.npy f32 2x16 range:-8:3:37
// RUN: hivm-run %s --entry bmm --sync-solver --arg %t.a.npy --arg %t.b.npy --arg zeros:2x16x16xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// RUN: hivm-run %s --entry bias --sync-solver --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:2x16x16xf32 --print 3 2>&1 | FileCheck %s --check-prefix=BIAS --implicit-check-not=error --implicit-check-not=warning
// RUN: not hivm-run %s --entry bad --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not hivm-run %s --entry bad_bias 2>&1 | FileCheck %s --check-prefix=BIAS3
// CHECK: {{\[\[\[}}631, 481, 578, 516, 518, 541, 496, 656, 496, 568, 486, 518, 566, 511, 646, 466],
// CHECK: [502, 739, 530, 631, 566, 543, 640, 515, 742, 523, 619, 569, 556, 643, 508, 730]],
// CHECK-NEXT: {{\[\[}}678, 515, 607, 517, 539, 584, 526, 681, 493, 585, 525, 572, 587, 504, 659, 501],
// CHECK: [511, 721, 515, 589, 557, 527, 625, 503, 703, 517, 606, 564, 519, 607, 505, 720]]]
// BIAS: {{\[\[\[}}245, 263, 276, 284, 272, 260, 278, 291, 299, 287, 275, 293, 306, 277, 265, 253],
// BIAS: [297, 301, 295, 289, 303, 312, 316, 310, 304, 281, 290, 294, 288, 282, 296, 305]]]
// BIAS3: error: batchMmadL1: the per-channel bias's leading dimension is 3, but there are 2 batches
// BATCH: cube-batch.mlir:[[@LINE+92]]:3: error: batchMmadL1: the batch sizes differ: A has 2, B has 3, C has 2

func.func @bmm(%a: memref<2x16x32xf16>, %b: memref<2x32x16xf16>, %c: memref<2x16x16xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o1 = arith.constant 1024 : i64
  %o2 = arith.constant 2048 : i64
  %o3 = arith.constant 3072 : i64
  %o4 = arith.constant 4096 : i64
  %o5 = arith.constant 5120 : i64
  %a0 = memref.subview %a[0, 0, 0] [1, 16, 32] [1, 1, 1] : memref<2x16x32xf16> to memref<16x32xf16, strided<[32, 1]>>
  %a1 = memref.subview %a[1, 0, 0] [1, 16, 32] [1, 1, 1] : memref<2x16x32xf16> to memref<16x32xf16, strided<[32, 1], offset: 512>>
  %b0 = memref.subview %b[0, 0, 0] [1, 32, 16] [1, 1, 1] : memref<2x32x16xf16> to memref<32x16xf16, strided<[16, 1]>>
  %b1 = memref.subview %b[1, 0, 0] [1, 32, 16] [1, 1, 1] : memref<2x32x16xf16> to memref<32x16xf16, strided<[16, 1], offset: 512>>
  %c0v = memref.subview %c[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  %c1v = memref.subview %c[1, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 256>>
  %la = hivm.hir.pointer_cast(%z) : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>
  %la0 = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %la1 = hivm.hir.pointer_cast(%o1) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o2) : memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lb0 = hivm.hir.pointer_cast(%o2) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lb1 = hivm.hir.pointer_cast(%o3) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lt = hivm.hir.pointer_cast(%o4) : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lt0 = hivm.hir.pointer_cast(%o4) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lt1 = hivm.hir.pointer_cast(%o5) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>
  %acc0 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  %acc1 = hivm.hir.pointer_cast(%o1) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a0 : memref<16x32xf16, strided<[32, 1]>>) outs(%la0 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a1 : memref<16x32xf16, strided<[32, 1], offset: 512>>) outs(%la1 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b0 : memref<32x16xf16, strided<[16, 1]>>) outs(%lb0 : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b1 : memref<32x16xf16, strided<[16, 1], offset: 512>>) outs(%lb1 : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.batchMmadL1 ins(%la, %lb, %true, %c16, %c32, %c16 : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a0 : memref<16x32xf16, strided<[32, 1]>>) outs(%lt0 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a1 : memref<16x32xf16, strided<[32, 1], offset: 512>>) outs(%lt1 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.batchMmadL1 {b_transpose} ins(%la, %lt, %false, %c16, %c32, %c16 : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc0 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%c0v : memref<16x16xf32, strided<[16, 1]>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc1 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%c1v : memref<16x16xf32, strided<[16, 1], offset: 256>>)
  return
}

func.func @bias(%a: memref<2x16x32xf16>, %b: memref<2x32x16xf16>, %bias: memref<2x16xf32>, %c: memref<2x16x16xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o1 = arith.constant 1024 : i64
  %o2 = arith.constant 2048 : i64
  %o3 = arith.constant 3072 : i64
  %o4 = arith.constant 4096 : i64
  %o5 = arith.constant 5120 : i64
  %a0 = memref.subview %a[0, 0, 0] [1, 16, 32] [1, 1, 1] : memref<2x16x32xf16> to memref<16x32xf16, strided<[32, 1]>>
  %a1 = memref.subview %a[1, 0, 0] [1, 16, 32] [1, 1, 1] : memref<2x16x32xf16> to memref<16x32xf16, strided<[32, 1], offset: 512>>
  %b0 = memref.subview %b[0, 0, 0] [1, 32, 16] [1, 1, 1] : memref<2x32x16xf16> to memref<32x16xf16, strided<[16, 1]>>
  %b1 = memref.subview %b[1, 0, 0] [1, 32, 16] [1, 1, 1] : memref<2x32x16xf16> to memref<32x16xf16, strided<[16, 1], offset: 512>>
  %c0v = memref.subview %c[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  %c1v = memref.subview %c[1, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 256>>
  %la = hivm.hir.pointer_cast(%z) : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>
  %la0 = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %la1 = hivm.hir.pointer_cast(%o1) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o2) : memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lb0 = hivm.hir.pointer_cast(%o2) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lb1 = hivm.hir.pointer_cast(%o3) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>
  %acc0 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  %acc1 = hivm.hir.pointer_cast(%o1) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  %lbias = hivm.hir.pointer_cast(%o4) : memref<2x16xf32, #hivm.address_space<cbuf>>
  hivm.hir.load ins(%bias : memref<2x16xf32>) outs(%lbias : memref<2x16xf32, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a0 : memref<16x32xf16, strided<[32, 1]>>) outs(%la0 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a1 : memref<16x32xf16, strided<[32, 1], offset: 512>>) outs(%la1 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b0 : memref<32x16xf16, strided<[16, 1]>>) outs(%lb0 : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b1 : memref<32x16xf16, strided<[16, 1], offset: 512>>) outs(%lb1 : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.batchMmadL1 ins(%la, %lb, %true, %c16, %c32, %c16, %lbias : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index, memref<2x16xf32, #hivm.address_space<cbuf>>) outs(%acc : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc0 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%c0v : memref<16x16xf32, strided<[16, 1]>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc1 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%c1v : memref<16x16xf32, strided<[16, 1], offset: 256>>)
  return
}

// B has three batches where A and C have two.
func.func @bad(%c: memref<16x16xf32>) {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 4096 : i64
  %la = hivm.hir.pointer_cast(%z) : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o) : memref<3x1x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.batchMmadL1 ins(%la, %lb, %true, %c16, %c32, %c16 : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<3x1x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>)
  return
}

// A bias of three rows for two batches.
func.func @bad_bias() {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 4096 : i64
  %ob = arith.constant 8192 : i64
  %la = hivm.hir.pointer_cast(%z) : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o) : memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>
  %lbias = hivm.hir.pointer_cast(%ob) : memref<3x16xf32, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.batchMmadL1 ins(%la, %lb, %true, %c16, %c32, %c16, %lbias : memref<2x2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<2x1x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index, memref<3x16xf32, #hivm.address_space<cbuf>>) outs(%acc : memref<2x1x1x16x16xf32, #hivm.address_space<cc>>)
  return
}
