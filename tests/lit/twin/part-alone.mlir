// One core's part of a split mix kernel, run alone with --part-alone: its
// sync_block_wait is taken as met and its sync_block_set goes nowhere, each
// said once as a warning (the loop below runs both four times), and the
// core's own pipes are checked as ever. Without the option the part is
// refused (mix-kernel.mlir); a missing flag between its own pipes is still
// a race.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 32x32 range:0:1
// RUN: hivm-opt %s -hivm-graph-sync-solver -o %t.mlir
// RUN: hivm-run %t.mlir --entry mm_aic --part-alone --arg %t.a.npy --arg zeros:32x32xf32 --print 1 2>&1 | FileCheck %s --implicit-check-not=error --implicit-check-not=warning
// RUN: not hivm-run %t.mlir --entry mm_aic --arg %t.a.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: sed '/set_flag\[<PIPE_M>, <PIPE_FIX>/d; /wait_flag\[<PIPE_M>, <PIPE_FIX>/d' %t.mlir > %t.cut.mlir
// RUN: not hivm-run %t.cut.mlir --entry mm_aic --part-alone --arg %t.a.npy --arg zeros:32x32xf32 2>&1 | FileCheck %s --check-prefix=CUT
// CHECK: warning: 'hivm.hir.sync_block_wait' is taken as met: this part of a mix kernel runs alone (part-alone), so its handshakes with the other cores are not checked
// CHECK: warning: 'hivm.hir.sync_block_set' goes nowhere: this part of a mix kernel runs alone (part-alone)
// A times A: row 0 is sum_k k * (32k + j) = 10416*32 + 496j.
// CHECK: arg 1 (memref<32x32xf32>): {{\[}}[333312, 333808,
// REFUSED: error: 'hivm.hir.sync_block_wait' runs only in a mix kernel: this function is one core's part of a mix kernel (hivm.func_core_type<AIC>), run alone
// CUT: error: race: PIPE_FIX read of L0C[0, 4096) is not ordered after an earlier PIPE_M write
// The handshakes it skips are still checked as ops.
// RUN: not hivm-run %s --entry bad_flag --part-alone 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not hivm-run %s --entry subblock_on_cube --part-alone 2>&1 | FileCheck %s --check-prefix=SUB
// FLAG: part-alone.mlir:{{[0-9]+}}:3: error: flag id 99 is not one of the 16 FFTS flags (0..15)
// SUB: error: INTER_SUBBLOCK_SYNCHRONIZATION syncs a block's vector cores with each other; the cube core runs this op

func.func @mm_aic(%a: memref<32x32xf16>, %c: memref<32x32xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix, mix_mode = "mix"} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%z) : memref<2x2x16x16xf32, #hivm.address_space<cc>>
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE2>, <PIPE_FIX>] flag = 1
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1a : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16>) outs(%l1b : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, memref<2x2x16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<2x2x16x16xf32, #hivm.address_space<cc>>) outs(%c : memref<32x32xf32>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
  }
  return
}

func.func @bad_flag() attributes {hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 99
  return
}

func.func @subblock_on_cube() attributes {hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 3 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
  return
}
