// A custom op's plain C stores leave no trace of their own; for the other
// blocks, its writes are the bytes it changed. Blocks writing their own
// elements of one output pass; blocks writing one element with different
// values race.
// RUN: hivm-run %s --impl %S/Inputs/block_slots.cpp --entry own --blocks 4 --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=OWN --implicit-check-not=error
// OWN: arg 0 (memref<8xf32>): [5, 6, 7, 8, 0, 0, 0, 0]
// RUN: not hivm-run %s --impl %S/Inputs/block_slots.cpp --entry same --blocks 2 --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: custom-blocks.mlir:[[#]]:3: error: race across blocks: PIPE_S write of argument 0[0, 4) in block 1 and block 0's PIPE_S write of the same memory are not ordered

func.func @own(%out: memref<8xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "own_slot"} "own_slot" outs(%out : memref<8xf32>)
  return
}

func.func @same(%out: memref<8xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "same_slot"} "same_slot" outs(%out : memref<8xf32>)
  return
}
