// A flag set again before it is waited for is a warning, reported once per
// place however often a loop repeats it (a long run's reports do not grow).
// RUN: hivm-run %s 2>&1 | FileCheck %s
// CHECK: warning: set_flag[PIPE_MTE2, PIPE_V, 0] sets a flag that is already set and not yet waited for
// CHECK-NOT: warning: set_flag
func.func @twice_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  }
  return
}
