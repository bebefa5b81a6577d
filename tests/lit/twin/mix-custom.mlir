// A CUBE custom op in a mix kernel: its C++ implementation (cube intrinsics)
// runs on the cube core only, the vector epilogue (each vector core doubles
// its half of the rows) on the two vector cores, with an FFTS flag between
// them. The products are those of cube-custom.mlir, doubled.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 16x32 range:0:1
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x16 range:0:1
// RUN: hivm-run %s --impl %S/Inputs/cube_mm.cpp --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 --arg zeros:16x16xf32 --print 3 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: {{\[}}[333312, 334304, 335296, 336288,
// CHECK-SAME: 346208, 347200, 348192],
// CHECK: [7951872, 7983584, 8015296,
// CHECK-SAME: 8364128, 8395840, 8427552]]
// Without the vector cores' wait their loads race with the custom op's
// drain of L0C, named down to the intrinsic call.
// RUN: sed '/sync_block_wait/d' %s > %t.nowait.mlir
// RUN: not hivm-run %t.nowait.mlir --impl %S/Inputs/cube_mm.cpp --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: race across cores: PIPE_MTE2 read of argument 2[0, 512) on vector core 0 is not ordered after the cube core's PIPE_FIX write
// NOWAIT: note: the write on the cube core: copy_matrix_cc_to_gm(
// NOWAIT: error: race across cores: PIPE_MTE2 read of argument 2[512, 1024) on vector core 1
func.func @mm(%a: memref<16x32xf16>, %b: memref<32x16xf16>, %c: memref<16x16xf32>, %out: memref<16x16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %z = arith.constant 0 : i64
  %o = arith.constant 1024 : i64
  %c8 = arith.constant 8 : index
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x32xf16>) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x16xf16>) outs(%l1b : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_MTE1>, symbol = "cube_mm"} "mm" ins(%l1a, %l1b : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x2x16x16xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x16xf32>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c8 : index
  %h = memref.subview %c[%row, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1], offset: ?>>
  %d = memref.subview %out[%row, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1], offset: ?>>
  %x = memref.alloc() : memref<8x16xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%h : memref<8x16xf32, strided<[16, 1], offset: ?>>) outs(%x : memref<8x16xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vadd ins(%x, %x : memref<8x16xf32, #hivm.address_space<ub>>, memref<8x16xf32, #hivm.address_space<ub>>) outs(%x : memref<8x16xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%x : memref<8x16xf32, #hivm.address_space<ub>>) outs(%d : memref<8x16xf32, strided<[16, 1], offset: ?>>)
  return
}
