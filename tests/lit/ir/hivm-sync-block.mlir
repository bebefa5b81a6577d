// Block synchronisation between cores: static or dynamic flag ids, the FFTS
// base address, and the instruction mode (the default one not printed).
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s -mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK-LABEL: func.func @f
func.func @f(%v: i64, %a: i64) {
  // CHECK: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 1{{$}}
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 1
  // CHECK: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = %arg0 ffts_base_addr = %arg1 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = %v ffts_base_addr = %a sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
  // CHECK: hivm.hir.sync_block_wait {x = 1 : i32}[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 10
  hivm.hir.sync_block_wait {x = 1 : i32}[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 10
  // CHECK: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = %arg0{{$}}
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = %v sync_instr_mode = <INTRA_BLOCK_SYNCHRONIZATION>
  return
}
