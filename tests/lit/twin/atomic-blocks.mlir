// Atomic updates across blocks: updates of one operation commute, so blocks
// adding into one element pass, and give the sum; an add and a max on one
// element give another result in another order: a race. Only the elements
// an indirect atomic updates are its accesses: a plain store of another
// element by one block is no race.
// RUN: hivm-run %s --entry adds --blocks 4 --arg zeros:4xi32 --print 0 2>&1 | FileCheck %s --check-prefix=ADDS --implicit-check-not=error
// ADDS: arg 0 (memref<4xi32>): [0, 10, 0, 7]
// RUN: not hivm-run %s --entry add_and_max --blocks 2 --arg zeros:4xi32 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: error: race across blocks: PIPE_V atomic update of argument 0[4, 8) in block 1 and block 0's PIPE_V atomic update of the same memory are not ordered

// Block b adds b + 1 into dst[1]; block 0 also stores 7 into dst[3].
func.func @adds(%dst: memref<4xi32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %seven = arith.constant 7 : i32
  %offs = memref.alloc() : memref<1xi32>
  %vals = memref.alloc() : memref<1xi32>
  %res = memref.alloc() : memref<1xi32>
  %b = hivm.hir.get_block_idx -> i64
  %b32 = arith.trunci %b : i64 to i32
  %v = arith.addi %b32, %one : i32
  memref.store %one, %offs[%c0] : memref<1xi32>
  memref.store %v, %vals[%c0] : memref<1xi32>
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "operate=add"} "__builtin_indirect_atomic" ins(%dst, %offs, %vals : memref<4xi32>, memref<1xi32>, memref<1xi32>) outs(%res : memref<1xi32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %z = arith.constant 0 : i64
  %first = arith.cmpi eq, %b, %z : i64
  scf.if %first {
    memref.store %seven, %dst[%c3] : memref<4xi32>
  }
  return
}

// Block 0 adds 1 into dst[1], block 1 takes its max with 5: 5 or 6.
func.func @add_and_max(%dst: memref<4xi32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %offs = memref.alloc() : memref<1xi32>
  %vals = memref.alloc() : memref<1xi32>
  %res = memref.alloc() : memref<1xi32>
  memref.store %one, %offs[%c0] : memref<1xi32>
  %z = arith.constant 0 : i64
  %b = hivm.hir.get_block_idx -> i64
  %first = arith.cmpi eq, %b, %z : i64
  scf.if %first {
    memref.store %one, %vals[%c0] : memref<1xi32>
    hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.custom {extra_attr = "operate=add"} "__builtin_indirect_atomic" ins(%dst, %offs, %vals : memref<4xi32>, memref<1xi32>, memref<1xi32>) outs(%res : memref<1xi32>)
  } else {
    memref.store %five, %vals[%c0] : memref<1xi32>
    hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.custom {extra_attr = "operate=max"} "__builtin_indirect_atomic" ins(%dst, %offs, %vals : memref<4xi32>, memref<1xi32>, memref<1xi32>) outs(%res : memref<1xi32>)
  }
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}
