// Flags between blocks: an INTER_BLOCK sync_block_set is counted once every
// core of its type (all vector cores, or all cube cores, of all blocks) has
// set it; then each of them gets one count. A kernel with such flags runs
// all its blocks' cores together, and global memory is checked across
// blocks through them.
//
// Each block doubles its row of the input into a workspace, meets the other
// blocks, then copies its neighbour's row (block b reads row b + 1 mod 4)
// to the output: out[b] = 2 * in[(b + 1) mod 4].
// RUN: python3 %root/scripts/npy.py %t.in.npy f32 4x64 range:0:1
// RUN: hivm-run %s --entry shift --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 --print 2 2>&1 | FileCheck %s --check-prefix=SHIFT --implicit-check-not=error
// SHIFT: arg 2 (memref<4x64xf32>): {{\[}}[128, 130, 132, 134,
// SHIFT-NEXT: [256, 258, 260,
// SHIFT-NEXT: [384, 386, 388,
// SHIFT-NEXT: [0, 2, 4, 6,
//
// One block alone meets only itself (no hang); the row it then reads was
// never written.
// RUN: hivm-run %s --entry shift --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 --print 2 2>&1 | FileCheck %s --check-prefix=ONE --implicit-check-not=error
// ONE: arg 2 (memref<4x64xf32>): {{\[}}[0, 0, 0, 0,
//
// Without the meeting the blocks run one after another, as blocks without
// INTER_BLOCK flags do, and what they share is checked across them: each
// block's read of its neighbour's row races with the neighbour's write.
// RUN: sed '/^func.func @shift/,/^}/{/flag = 12/d}' %s > %t.nomeet1.mlir
// RUN: not hivm-run %t.nomeet1.mlir --entry shift --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=NOSYNC
// NOSYNC: .mlir:[[#ST:]]:3: error: race across blocks: PIPE_MTE3 write of argument 1[256, 512) in block 1 and block 0's PIPE_MTE2 read of the same memory are not ordered
// NOSYNC: .mlir:[[#ST+2]]:3: note: the read in block 0
// NOSYNC: .mlir:[[#ST+2]]:3: error: race across blocks: PIPE_MTE2 read of argument 1[0, 256) in block 3 and block 0's PIPE_MTE3 write
// NOSYNC: hivm-run: 2 sync problem(s) found
//
// Reading the neighbour's row before the wait races with its write.
// RUN: not hivm-run %s --entry early --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=EARLY
// (Block 0 runs first, up to its wait: its early read comes first here.)
// EARLY: inter-block.mlir:[[#]]:3: error: race across cores: PIPE_MTE3 write of argument 1[256, 512) on the vector core of block 1 is not ordered after the vector core of block 0's PIPE_MTE2 read of the same memory (blocks are ordered only by INTER_BLOCK sync_block_set/sync_block_wait) (block 1)
// EARLY: inter-block.mlir:[[#]]:3: note: the read on the vector core of block 0
//
// Block 0 never sets the flag: every block's wait hangs (one report, with
// the count of the other blocks), the note counts the sets, and the partial
// round is left over.
// RUN: not hivm-run %s --entry one_skips --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: error: sync_block_wait[PIPE_MTE2] flag = 12 on the vector core of block 0 waits for flag 12, which no core sets (every core is waiting or done): this hangs on hardware (so does the same core's wait here in 3 other block(s)) (block 0)
// SKIP-NEXT: sync_block_wait
// SKIP-NEXT: ^
// SKIP-NEXT: note: flag 12 was set here in INTER_BLOCK mode by 3 of the 4 vector cores; a count needs every one's set
// SKIP: error: the vector core of block 1's INTER_BLOCK sync_block_set of flag 12 is never matched by every vector core when the kernel ends (3 of 4 set it) (block 1)
//
// All blocks must be resident at once to meet: more than the chip's cores
// of the type hang on hardware (910B1: 48 vector cores).
// RUN: not hivm-run %s --entry one_skips --blocks 49 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=CAP
// CAP: inter-block.mlir:[[#]]:1: error: the kernel's INTER_BLOCK flags need all 49 blocks running at once, but the default target (Ascend910B1) has 48 vector cores: the blocks beyond them wait for cores that never free up, so this hangs on hardware
//
// A kernel for vector cores cannot set a cube flag.
// RUN: not hivm-run %s --entry wrong_type --blocks 2 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: inter-block.mlir:[[#]]:3: error: this CUBE flag runs on the kernel's vector cores (as its hivm.func_core_type, or else its first INTER_BLOCK flag, says)
// Without a func_core_type, the kernel's first INTER_BLOCK flag says which
// cores it runs on: here three cube cores meet twice.
// RUN: hivm-run %s --entry cube_meet --blocks 3 2>&1 | FileCheck %s --check-prefix=CUBE --allow-empty --implicit-check-not=error
// CUBE-NOT: hang
// Without their first set, every cube core's first wait hangs.
// RUN: sed '/^func.func @cube_meet/,/^}/{0,/flag = 13/{/sync_block_set/d}}' %s > %t.cube.mlir
// RUN: not hivm-run %t.cube.mlir --entry cube_meet --blocks 3 2>&1 | FileCheck %s --check-prefix=CUBEHANG
// CUBEHANG: error: sync_block_wait[PIPE_S] flag = 13 on the cube core of block 0 waits for flag 13, which no core sets
// CUBEHANG-SAME: (so does the same core's wait here in 2 other block(s))
//
// Written as upstream's high-level sync_block ALL_VECTOR, which the twin
// lowers as hivm-decompose-op does (a barrier on MTE3, then flag 14
// between all vector cores).
// RUN: hivm-run %s --entry shift_sync_block --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 --print 2 2>&1 | FileCheck %s --check-prefix=SHIFT --implicit-check-not=error
// RUN: sed '/^func.func @shift_sync_block/,/^}/{/sync_block\[/d}' %s > %t.nosb.mlir
// RUN: not hivm-run %t.nosb.mlir --entry shift_sync_block --blocks 4 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=NOSB
// NOSB: error: race across blocks
//
// A mix kernel meets as upstream's decomposed sync_block ALL does: each
// block's vector cores hand over to their cube core (flag 10), the cube
// cores meet (flag 13, INTER_BLOCK), and each hands back (flag 11). Rows
// are numbered block by block, sub-block within: out[r] = 2 * in[(r + 1) mod 4].
// RUN: hivm-run %s --entry mix_all --blocks 2 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 --print 2 2>&1 | FileCheck %s --check-prefix=MIX --implicit-check-not=error
// MIX: arg 2 (memref<4x64xf32>): {{\[}}[128, 130, 132, 134,
// MIX-NEXT: [256, 258, 260,
// MIX-NEXT: [384, 386, 388,
// MIX-NEXT: [0, 2, 4, 6,
// Without the cube cores' meeting the blocks run one by one, and a block's
// vector cores read the other block's rows unordered.
// RUN: sed '/^func.func @mix_all/,/^}/{/flag = 13/d}' %s > %t.nomeet.mlir
// RUN: not hivm-run %t.nomeet.mlir --entry mix_all --blocks 2 --arg %t.in.npy --arg zeros:4x64xf32 --arg zeros:4x64xf32 2>&1 | FileCheck %s --check-prefix=NOMEET
// NOMEET: error: race across blocks: PIPE_MTE3 write of argument 1[512, 768) in block 1 and block 0's PIPE_MTE2 read of the same memory are not ordered (blocks run at once, in any order; only INTER_BLOCK sync_block_set/sync_block_wait or a sync_block_lock ring orders them) (block 1)
// NOMEET: note: the read in block 0
// NOMEET: error: race across blocks: PIPE_MTE2 read of argument 1[0, 256) in block 1 and block 0's PIPE_MTE3 write
// NOMEET: hivm-run: 2 sync problem(s) found

func.func @shift(%in: memref<4x64xf32>, %ws: memref<4x64xf32>, %out: memref<4x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %n1 = arith.addi %bi, %c1 : index
  %next = arith.remui %n1, %c4 : index
  %src = memref.subview %in[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %mine = memref.subview %ws[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %theirs = memref.subview %ws[%next, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %dst = memref.subview %out[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %u = memref.alloc() : memref<1x64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vmul ins(%u, %two : memref<1x64xf32, #hivm.address_space<ub>>, f32) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%mine : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.load ins(%theirs : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%dst : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @early(%in: memref<4x64xf32>, %ws: memref<4x64xf32>, %out: memref<4x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %n1 = arith.addi %bi, %c1 : index
  %next = arith.remui %n1, %c4 : index
  %src = memref.subview %in[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %mine = memref.subview %ws[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %theirs = memref.subview %ws[%next, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %dst = memref.subview %out[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %u = memref.alloc() : memref<1x64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%mine : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.load ins(%theirs : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%dst : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @one_skips(%in: memref<4x64xf32>, %ws: memref<4x64xf32>, %out: memref<4x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %z = arith.constant 0 : i64
  %b = hivm.hir.get_block_idx -> i64
  %not_first = arith.cmpi ne, %b, %z : i64
  scf.if %not_first {
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  }
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  return
}

func.func @wrong_type() attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  return
}

func.func @mix_all(%in: memref<4x64xf32>, %ws: memref<4x64xf32>, %out: memref<4x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %r0 = arith.muli %bi, %c2 : index
  %r = arith.addi %r0, %sbi : index
  %n1 = arith.addi %r, %c1 : index
  %next = arith.remui %n1, %c4 : index
  %src = memref.subview %in[%r, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %mine = memref.subview %ws[%r, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %theirs = memref.subview %ws[%next, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %dst = memref.subview %out[%r, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %u = memref.alloc() : memref<1x64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vmul ins(%u, %two : memref<1x64xf32, #hivm.address_space<ub>>, f32) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%mine : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_FIX>] flag = 10
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_FIX>] flag = 10
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 11
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 11
  hivm.hir.load ins(%theirs : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%dst : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @cube_meet() {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  return
}

func.func @shift_sync_block(%in: memref<4x64xf32>, %ws: memref<4x64xf32>, %out: memref<4x64xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %n1 = arith.addi %bi, %c1 : index
  %next = arith.remui %n1, %c4 : index
  %src = memref.subview %in[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %mine = memref.subview %ws[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %theirs = memref.subview %ws[%next, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %dst = memref.subview %out[%bi, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %u = memref.alloc() : memref<1x64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vmul ins(%u, %two : memref<1x64xf32, #hivm.address_space<ub>>, f32) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%mine : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>] tvector_pipe = #hivm.pipe<PIPE_MTE3> vector_pipe = #hivm.pipe<PIPE_MTE2>
  hivm.hir.load ins(%theirs : memref<1x64xf32, strided<[64, 1], offset: ?>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%u : memref<1x64xf32, #hivm.address_space<ub>>) outs(%dst : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}
