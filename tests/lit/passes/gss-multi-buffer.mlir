// A two-address pointer_cast made in a loop is double buffered: the
// loop-carried MTE3 -> MTE2 sync rotates two ids, chosen each iteration from
// a counter the solver puts at the head of the loop body, with both ids set
// before the loop and waited for after it. hivm-lower-multi-buffer-counter
// then keeps that counter in a function-scoped alloca.
// RUN: hivm-opt %s -hivm-graph-sync-solver | FileCheck %s --check-prefix=SOLVED
// RUN: hivm-opt %s -hivm-graph-sync-solver -hivm-lower-multi-buffer-counter | FileCheck %s --check-prefix=LOWERED

// SOLVED: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// SOLVED-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
// SOLVED-NEXT: scf.for
// SOLVED-NEXT: %[[CNT:.*]] = hivm.hir.multi_buffer_counter -> i64
// SOLVED-NEXT: %[[TWO:.*]] = arith.constant 2 : i64
// SOLVED-NEXT: %[[REM:.*]] = arith.remui %[[CNT]], %[[TWO]] : i64
// SOLVED-NEXT: %[[IDX:.*]] = arith.index_cast %[[REM]] : i64 to index
// SOLVED-NEXT: %[[BIT:.*]] = arith.index_cast %[[IDX]] : index to i1
// SOLVED-NEXT: %[[ID0:.*]] = arith.constant 0 : i64
// SOLVED-NEXT: %[[ID1:.*]] = arith.constant 1 : i64
// SOLVED-NEXT: %[[ID:.*]] = arith.select %[[BIT]], %[[ID0]], %[[ID1]] : i64
// SOLVED: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, %[[ID]]]
// SOLVED-NEXT: hivm.hir.load
// SOLVED: hivm.hir.store
// SOLVED-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, %[[ID]]]
// SOLVED-NEXT: }
// SOLVED-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
// SOLVED-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]

// LOWERED: func.func @double_buffer
// LOWERED-NEXT: %[[CTR:.*]] = memref.alloca() : memref<1xi64>
// LOWERED-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// LOWERED-NEXT: %[[AT:.*]] = arith.constant 0 : index
// LOWERED-NEXT: memref.store %[[ZERO]], %[[CTR]][%[[AT]]] : memref<1xi64>
// LOWERED: scf.for
// LOWERED-NEXT: %[[AT2:.*]] = arith.constant 0 : index
// LOWERED-NEXT: %[[CUR:.*]] = memref.load %[[CTR]][%[[AT2]]] : memref<1xi64>
// LOWERED-NEXT: arith.constant 2 : i64
// LOWERED-NEXT: arith.remui %[[CUR]]
// LOWERED: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, %{{.*}}]
// LOWERED-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// LOWERED-NEXT: %[[NEXT:.*]] = arith.addi %[[CUR]], %[[ONE]] : i64
// LOWERED-NEXT: %[[AT3:.*]] = arith.constant 0 : index
// LOWERED-NEXT: memref.store %[[NEXT]], %[[CTR]][%[[AT3]]] : memref<1xi64>
// LOWERED-NEXT: }
// LOWERED-NOT: multi_buffer_counter
func.func @double_buffer(%in: memref<32xf16, #hivm.address_space<gm>>, %out: memref<32xf16, #hivm.address_space<gm>>) {
  %a = arith.constant 0 : i64
  %b = arith.constant 64 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c6 step %c1 {
    %buf = hivm.hir.pointer_cast(%a, %b) : memref<32xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%in : memref<32xf16, #hivm.address_space<gm>>) outs(%buf : memref<32xf16, #hivm.address_space<ub>>)
    hivm.hir.store ins(%buf : memref<32xf16, #hivm.address_space<ub>>) outs(%out : memref<32xf16, #hivm.address_space<gm>>)
  }
  return
}
