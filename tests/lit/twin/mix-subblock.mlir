// INTER_SUBBLOCK flags: a block's two vector cores sync with each other
// (once both have set a flag, each gets one count of it). Each vector core
// stores sub-block index + 1 into its row of a GM workspace, both meet at
// the sub-block flag, then each copies the other's row into its row of out.
// RUN: hivm-run %s --entry sub --arg zeros:2x16xf32 --arg zeros:2x16xf32 --arg 0 --print 1 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: {{\[}}[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
// CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]
//
// Without the flags each core reads the other's row unordered after its write:
// RUN: not hivm-run %s --entry sub --arg zeros:2x16xf32 --arg zeros:2x16xf32 --arg 1 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: race across cores
//
// Only vector core 0 sets the flag: both wait for a count that needs both.
// RUN: not hivm-run %s --entry sub --arg zeros:2x16xf32 --arg zeros:2x16xf32 --arg 2 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: error: sync_block_wait[PIPE_MTE2] flag = 3 on vector core 0 waits for flag 3
// HANG: note: only vector core 0 set flag 3 here in INTER_SUBBLOCK mode; a count needs both vector cores' sets
// HANG: error: vector core 0's INTER_SUBBLOCK sync_block_set of flag 3 is never matched by vector core 1's when the kernel ends
//
// The cube core has no part in a sub-block sync:
// RUN: not hivm-run %s --entry cube_sub 2>&1 | FileCheck %s --check-prefix=CUBE
// CUBE: mix-subblock.mlir:[[@LINE+39]]:3: error: INTER_SUBBLOCK_SYNCHRONIZATION syncs a block's vector cores with each other; the cube core runs this op
func.func @sub(%ws: memref<2x16xf32>, %out: memref<2x16xf32>, %variant: i32) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %c1 = arith.constant 1 : index
  %c0i = arith.constant 0 : i32
  %c2i = arith.constant 2 : i32
  %one = arith.constant 1.0 : f32
  %sb = hivm.hir.get_sub_block_idx -> i64
  %i = arith.index_cast %sb : i64 to index
  %j = arith.subi %c1, %i : index
  %f = arith.sitofp %sb : i64 to f32
  %v = arith.addf %f, %one : f32
  %u = memref.alloc() : memref<1x16xf32, #hivm.address_space<ub>>
  %u2 = memref.alloc() : memref<1x16xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%v : f32) outs(%u : memref<1x16xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %mine = memref.subview %ws[%i, 0] [1, 16] [1, 1] : memref<2x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
  hivm.hir.store ins(%u : memref<1x16xf32, #hivm.address_space<ub>>) outs(%mine : memref<1x16xf32, strided<[16, 1], offset: ?>>)
  %both = arith.cmpi eq, %variant, %c0i : i32
  %c0l = arith.constant 0 : i64
  %first = arith.cmpi eq, %sb, %c0l : i64
  %one_sets = arith.cmpi eq, %variant, %c2i : i32
  %set_here = arith.andi %one_sets, %first : i1
  %do_set = arith.ori %both, %set_here : i1
  %do_wait = arith.ori %both, %one_sets : i1
  scf.if %do_set {
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 3 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
  }
  scf.if %do_wait {
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 3 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
  }
  %theirs = memref.subview %ws[%j, 0] [1, 16] [1, 1] : memref<2x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
  hivm.hir.load ins(%theirs : memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%u2 : memref<1x16xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %dst = memref.subview %out[%i, 0] [1, 16] [1, 1] : memref<2x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
  hivm.hir.store ins(%u2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%dst : memref<1x16xf32, strided<[16, 1], offset: ?>>)
  return
}

func.func @cube_sub() attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 3 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
  return
}
