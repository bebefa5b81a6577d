// Mix kernels: one cube core and two vector cores per block, meeting
// through FFTS flags (sync_block_set / sync_block_wait) and GM. The cube
// core multiplies (GM -> nd2nz -> mmadL1 -> fixpipe into a GM workspace)
// and hands over by flag 0; each vector core waits, loads its half of the
// rows (by its sub-block index), adds a per-column bias, applies ReLU and
// stores. A = 1 everywhere and B[k][n] = n - 16 give (A B)[m][n] =
// 32 (n - 16); with bias[n] = n / 2 every row of the result is
// max(0, 32.5 n - 512).
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 32x32 range:1:0
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x32 $(python3 -c "print(*[n - 16 for k in range(32) for n in range(32)])")
// RUN: python3 %root/scripts/npy.py %t.bias.npy f32 1x32 range:0:0.5
// RUN: hivm-run %s --entry mix --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:32x32xf32 --print 4 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: arg 4 (memref<32x32xf32>): {{\[}}[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 40.5, 73, 105.5, 138, 170.5, 203, 235.5, 268, 300.5, 333, 365.5, 398, 430.5, 463, 495.5],
// CHECK-COUNT-30: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 40.5, 73, 105.5, 138, 170.5, 203, 235.5, 268, 300.5, 333, 365.5, 398, 430.5, 463, 495.5],
// CHECK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 40.5, 73, 105.5, 138, 170.5, 203, 235.5, 268, 300.5, 333, 365.5, 398, 430.5, 463, 495.5]]
//
// The workspace may be a GM allocation of the kernel: all cores of the
// block see the one buffer, checked across cores as an argument is.
// RUN: hivm-run %s --entry alloc_ws --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --print 3 2>&1 | FileCheck %s --check-prefix=ALLOC --implicit-check-not=error
// ALLOC-COUNT-32: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 40.5, 73, 105.5, 138, 170.5, 203, 235.5, 268, 300.5, 333, 365.5, 398, 430.5, 463, 495.5]
// RUN: sed '/^func.func @alloc_ws/,/^}/{/sync_block_wait/d}' %s > %t.nowait.mlir
// RUN: not hivm-run %t.nowait.mlir --entry alloc_ws --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=ALLOCRACE
// ALLOCRACE: error: race across cores: PIPE_MTE2 read of GM allocation of line [[#]][0, 2048) on vector core 0 is not ordered after the cube core's PIPE_FIX write
//
// The same over two blocks: each block's cores are fresh (a flag does not
// outlive its block: no hang), but both blocks compute the whole product
// into the same workspace. Their writes of the same bytes are harmless in
// either order; each block's reads of what the other wrote are races
// (blocks run at once on the NPU).
// RUN: not hivm-run %s --entry mix --blocks 2 --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=BLOCKS --implicit-check-not=hang
// BLOCKS: error: race across blocks: PIPE_FIX write of argument 3[0, 4096) in block 1 and block 0's PIPE_MTE2 read of the same memory are not ordered
// BLOCKS: error: race across blocks: PIPE_MTE2 read of argument 3[0, 4096) in block 1 and block 0's PIPE_FIX write
// BLOCKS: hivm-run: 2 sync problem(s) found
//
// Without the vector cores' wait, their loads race with the cube's fixpipe
// (each vector core's half is named), and the cube's flag is left over.
// RUN: not hivm-run %s --entry no_wait --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: mix-kernel.mlir:[[#NWL:]]:3: error: race across cores: PIPE_MTE2 read of argument 3[0, 2048) on vector core 0 is not ordered after the cube core's PIPE_FIX write of the same memory (no sync_block_set/sync_block_wait handshake orders them)
// RACE: mix-kernel.mlir:[[#NWL-2]]:3: note: the write on the cube core
// RACE: mix-kernel.mlir:[[#NWL]]:3: error: race across cores: PIPE_MTE2 read of argument 3[2048, 4096) on vector core 1
// RACE: mix-kernel.mlir:[[#NWL-2]]:3: note: the write on the cube core
// RACE: error: sync_block_set of flag 0 for vector core 0 is still set when the kernel ends (no sync_block_wait consumed it)
// RACE: hivm-run: 4 sync problem(s) found
//
// A wait for a flag that no core sets hangs; the set of another id is named.
// RUN: not hivm-run %s --entry wrong_flag --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: error: sync_block_wait[PIPE_S] flag = 1 on vector core 0 waits for flag 1, which no core sets (every core is waiting or done): this hangs on hardware
// HANG: note: flag 0 was set here instead
// HANG: error: sync_block_wait[PIPE_S] flag = 1 on vector core 1 waits for flag 1
//
// Ping-pong over a loop: the cube may overwrite the workspace only once
// both vector cores have loaded it (flag 1, counted from both). Without
// that handshake the cube runs ahead: its second fixpipe overwrites the
// workspace the vector cores' first loads read (the twin runs the cube
// until it waits, so the loads are the later accesses here).
// RUN: hivm-run %s --entry loop --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:2x32x32xf32 --print 4 2>&1 | FileCheck %s --check-prefix=LOOP --implicit-check-not=error
// LOOP-COUNT-64: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 40.5, 73, 105.5, 138, 170.5, 203, 235.5, 268, 300.5, 333, 365.5, 398, 430.5, 463, 495.5]
// RUN: not hivm-run %s --entry loop_no_release --arg %t.a.npy --arg %t.b.npy --arg %t.bias.npy --arg zeros:32x32xf32 --arg zeros:2x32x32xf32 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: mix-kernel.mlir:[[#LOAD:]]:5: error: race across cores: PIPE_MTE2 read of argument 3[0, 2048) on vector core 0 is not ordered after the cube core's PIPE_FIX write of the same memory
// WAR: mix-kernel.mlir:[[#LOAD-3]]:5: note: the write on the cube core
// WAR: error: race across cores: PIPE_MTE2 read of argument 3[2048, 4096) on vector core 1
//
// Only one vector core sets the cube's flag: the cube's wait hangs, and the
// report says the other half is missing.
// RUN: not hivm-run %s --entry one_half --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: error: sync_block_wait[PIPE_S] flag = 3 on the cube core waits for flag 3, which no core sets
// HALF: note: only vector core 0 set flag 3 here; the cube core's count needs both vector cores' sets
//
// A function marked MIX but without cross-core flags (not yet split for
// the cores) runs whole on one core, as before: no second vector core
// repeats its store.
// RUN: hivm-run %s --entry marked_no_flags --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=WHOLE --allow-empty
// WHOLE-NOT: error
//
// (Sub-block flags: mix-subblock.mlir; flags between blocks:
// inter-block.mlir.)
//
// An error on one core ends the block with that error alone: the core
// waiting for it is no hang.
// RUN: not hivm-run %s --entry fault_one_core --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=FAULT --implicit-check-not=hang
// FAULT: error: UB overflow: allocating 3600000 bytes at offset 0 exceeds the 196608 bytes of UB (on vector core 0)
// FAULT-NOT: error
//
// Outside a mix kernel the cross-core flags are refused.
// RUN: not hivm-run %s --entry not_mix 2>&1 | FileCheck %s --check-prefix=NOTMIX
// NOTMIX: error: 'hivm.hir.sync_block_set' runs only in a mix kernel
// One core's part of a split mix kernel, run alone, says so.
// RUN: not hivm-run %s --entry aic_part 2>&1 | FileCheck %s --check-prefix=PART
// PART: error: 'hivm.hir.sync_block_set' runs only in a mix kernel: this function is one core's part of a mix kernel (hivm.func_core_type<AIC>), run alone

func.func @mix(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  %dst = memref.subview %out[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @no_wait(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  %dst = memref.subview %out[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @wrong_flag(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  %dst = memref.subview %out[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 1
  hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @loop(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<2x32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_S>] flag = 1
  scf.for %i = %c0 to %c2 step %c1 {
    %dst = memref.subview %out[%i, %row, 0] [1, 16, 32] [1, 1, 1] : memref<2x32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE2>, <PIPE_S>] flag = 1
    hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_S>] flag = 1
    hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE2>, <PIPE_S>] flag = 1
  return
}

func.func @loop_no_release(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<2x32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  scf.for %i = %c0 to %c2 step %c1 {
    %dst = memref.subview %out[%i, %row, 0] [1, 16, 32] [1, 1, 1] : memref<2x32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  return
}

func.func @one_half(%ws: memref<32x32xf32>) attributes {hacc.entry, mix_mode = "mix"} {
  %sb = hivm.hir.get_sub_block_idx -> i64
  %c0 = arith.constant 0 : i64
  %first = arith.cmpi eq, %sb, %c0 : i64
  scf.if %first {
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 3
  }
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_S>] flag = 3
  return
}

func.func @not_mix() {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  return
}

func.func @marked_no_flags(%g: memref<64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %one = arith.constant 1.0 : f32
  hivm.hir.vbrc ins(%one : f32) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%g : memref<64xf32>)
  return
}

func.func @alloc_ws(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<1x32xf32>, %out: memref<32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %ws = memref.alloc() : memref<32x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  %x = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %half = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  %dst = memref.subview %out[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%ws : memref<32x32xf32>)
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.load ins(%half : memref<16x32xf32, strided<[32, 1], offset: ?>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : memref<16x32xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%x, %bb : memref<16x32xf32, #hivm.address_space<ub>>, memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vrelu ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%x : memref<16x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%x : memref<16x32xf32, #hivm.address_space<ub>>) outs(%dst : memref<16x32xf32, strided<[32, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @fault_one_core(%g: memref<64xf32>) attributes {mix_mode = "mix"} {
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_S>] flag = 2
  %sb = hivm.hir.get_sub_block_idx -> i64
  %z = arith.constant 0 : i64
  %first = arith.cmpi eq, %sb, %z : i64
  scf.if %first {
    %u = memref.alloc() : memref<900000xf32, #hivm.address_space<ub>>
  }
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 2
  return
}

func.func @aic_part() attributes {hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix, mix_mode = "mix"} {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 1
  return
}
