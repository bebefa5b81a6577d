// fixpipe channel_split: L0C's 16 x 16 f32 fractals written to L1 as two
// 16 x 8 ones each (the f32 fractal the cube reads from L1), so a matmul's
// f32 result feeds the next matmul: D = (A B) C, exact in f32 (small
// integers). Without channel_split the fixpipe writes 16 x 16 fractals,
// which an L1 buffer typed in 16 x 8 ones does not hold: refused, as is
// channel_split into an ND matrix.
// RUN: python3 %root/scripts/npy.py %t.a.npy f32 16x16 range:0:1:7
// RUN: python3 %root/scripts/npy.py %t.b.npy f32 16x16 range:1:1:5
// RUN: python3 %root/scripts/npy.py %t.c.npy f32 16x16 range:0:1:3
// RUN: hivm-run %s --entry chain --sync-solver --arg %t.a.npy --arg %t.b.npy --arg %t.c.npy --arg zeros:16x16xf32 --print 3 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: sed 's/{channel_split = true} //' %s > %t.nosplit.mlir
// RUN: not hivm-run %t.nosplit.mlir --entry chain --sync-solver --arg %t.a.npy --arg %t.b.npy --arg %t.c.npy --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=NOSPLIT
// RUN: sed '/channel_split/s/{channel_split = true} \(.*\) outs(%x1 : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>)/{channel_split = true, enable_nz2nd} \1 outs(%d : memref<16x16xf32>)/' %s > %t.nd.mlir
// RUN: not hivm-run %t.nd.mlir --entry chain --sync-solver --arg %t.a.npy --arg %t.b.npy --arg %t.c.npy --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=ND
// The reference (numpy's (A @ B) @ C): row 0 starts 1935, 2057, 2179 and
// row 15 ends 2259, 2403, 2115.
// CHECK: arg 3 (memref<16x16xf32>): {{\[}}[1935, 2057, 2179, 1935,
// CHECK: 2259, 2403, 2115]]
// NOSPLIT: error: fixpipe: the destination's fractal is 16 x 8, but without channel_split the fixpipe writes f32 in 16 x 16 fractals
// RUN: not hivm-run %s --entry f16_16x8 --arg zeros:1x1x16x16xf32 --arg zeros:2x1x16x8xf16 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not hivm-run %s --entry i8_nz --arg zeros:1x1x16x16xi32 --arg zeros:1x1x16x32xi8 2>&1 | FileCheck %s --check-prefix=I8
// F16: error: fixpipe: the destination's fractal is 16 x 8, but without channel_split the fixpipe writes f16 in 16 x 16 fractals
// I8: error: fixpipe: an NZ destination of i8 (its fractal rows padded to 32 bytes or not, c0_pad_en) is not supported by the CPU twin yet
// ND: error: fixpipe: channel_split splits f32 fractals: the destination must be an f32 fractal (with dma_mode = normal)
func.func @chain(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>, %d: memref<16x16xf32>) {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i64
  %o1 = arith.constant 1024 : i64
  %o2 = arith.constant 2048 : i64
  %x = arith.constant 3072 : i64
  %la = hivm.hir.pointer_cast(%z) : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>
  %lb = hivm.hir.pointer_cast(%o1) : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>
  %lc = hivm.hir.pointer_cast(%o2) : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>
  %x1 = hivm.hir.pointer_cast(%x) : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>
  %acc0 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  %acc1 = hivm.hir.pointer_cast(%o1) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x16xf32>) outs(%la : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<16x16xf32>) outs(%lb : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%c : memref<16x16xf32>) outs(%lc : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%la, %lb, %true, %c16, %c16, %c16 : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>, memref<2x1x16x8xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc0 : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {channel_split = true} ins(%acc0 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%x1 : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%x1, %lc, %true, %c16, %c16, %c16 : memref<2x1x16x8xf32, #hivm.address_space<cbuf>>, memref<2x1x16x8xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc1 : memref<1x1x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc1 : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%d : memref<16x16xf32>)
  return
}

func.func @f16_16x8(%src: memref<1x1x16x16xf32>, %dst: memref<2x1x16x8xf16>) {
  %z = arith.constant 0 : i64
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf32, #hivm.address_space<cc>>
  hivm.hir.fixpipe {pre_quant = #hivm.fixpipe_pre_quant_mode<F322F16>} ins(%acc : memref<1x1x16x16xf32, #hivm.address_space<cc>>) outs(%dst : memref<2x1x16x8xf16>)
  return
}

func.func @i8_nz(%src: memref<1x1x16x16xi32>, %dst: memref<1x1x16x32xi8>) {
  %z = arith.constant 0 : i64
  %k = arith.constant 1.0 : f32
  %acc = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xi32, #hivm.address_space<cc>>
  hivm.hir.fixpipe {pre_quant = #hivm.fixpipe_pre_quant_mode<S322I8>} ins(%acc : memref<1x1x16x16xi32, #hivm.address_space<cc>>) outs(%dst : memref<1x1x16x32xi8>) quant_scale = %k : f32
  return
}
