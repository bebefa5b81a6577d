// A matmul on the cube core at memref level: GM -> nd2nz -> L1 (fractal) ->
// mmadL1 -> L0C -> fixpipe (nz2nd) -> GM, synchronised by the solver; the
// sums are exact (integers below 2^24). Without the solver the hand-overs
// MTE2 -> MTE1 (L1) and M -> FIX (L0C) race.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 16x32 range:0:1
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x16 range:0:1
// RUN: hivm-run %s --entry mm --sync-solver --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: not hivm-run %s --entry mm --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=RACE
// CHECK: {{\[}}[166656, 167152, 167648, 168144,
// CHECK-SAME: 173104, 173600, 174096],
// CHECK: [3975936, 3991792, 4007648,
// CHECK-SAME: 4182064, 4197920, 4213776]]
// RACE: error: race: PIPE_MTE1 read of L1[0, 1024) is not ordered after an earlier PIPE_MTE2 write
// RACE: error: race: PIPE_FIX read of L0C[0, 1024) is not ordered after an earlier PIPE_M write
func.func @mm(%a: memref<16x32xf16>, %b: memref<32x16xf16>, %c: memref<16x16xf32>) {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 1024 : i64
  // A (16 x 32) as [K1, M1, 16, 16]; B (32 x 16) as [N1, K1, 16, 16].
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x32xf16>) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x16xf16>) outs(%l1b : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c16, %c32, %c16 : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<16x16xf32>)
  return
}

// The control ops a cube kernel starts with: the FFTS base (only cross-core
// flags use it) and the vector mask's normal mode.
// RUN: hivm-run %s --entry prologue --arg 0 2>&1 | FileCheck %s --check-prefix=PROLOGUE --allow-empty
// PROLOGUE-NOT: error
func.func @prologue(%ffts: i64) {
  hivm.hir.set_ffts_base_addr %ffts
  hivm.hir.set_mask_norm
  return
}

// RUN: hivm-run %s --entry saturation 2>&1 | FileCheck %s --check-prefix=SAT --allow-empty
// RUN: not hivm-run %s --entry other_ctrl 2>&1 | FileCheck %s --check-prefix=CTRL
// SAT-NOT: error
// CTRL: error: set_ctrl true at ctrl[60] is not supported by the CPU twin yet (only the entry's saturation bits)
func.func @saturation() {
  hivm.hir.set_ctrl false at ctrl[60]
  hivm.hir.set_ctrl true at ctrl[48]
  hivm.hir.set_ctrl true at ctrl[60]
  return
}

func.func @other_ctrl() {
  hivm.hir.set_ctrl true at ctrl[60]
  hivm.hir.set_mask_norm
  return
}

// A broadcast into L1 is a DMA on MTE2, as the solver sees it: filling a
// buffer and then loading into it needs only an MTE2 barrier.
// RUN: hivm-run %s --entry fill_then_load --sync-solver --arg %t.a.npy 2>&1 | FileCheck %s --check-prefix=FILL --allow-empty
// FILL-NOT: error
func.func @fill_then_load(%a: memref<16x32xf16>) {
  %z = arith.constant 0 : i64
  %zero = arith.constant 0.0 : f16
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.vbrc ins(%zero : f16) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x32xf16>) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  return
}
