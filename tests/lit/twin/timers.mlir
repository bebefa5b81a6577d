// Nothing an implementation starts may run after its call returns: code
// that did (a timer's signal handler or thread writing the output it was
// given) would change memory that belongs to something else by then, unseen.
// Timers are refused in the call worker (but alarm, which is cancelled when
// the call returns), and the signal mask is restored after each call.
// The kernel refills the op's output after the call, runs a while, then
// stores it: any later write would show as a 99 or 77.
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry signal_timer --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry thread_timer --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry profiling_timer --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry alarm_timer --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry pending_signal --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: [5, 5, 5, 5, 5, 5, 5, 5]
// RUN: hivm-run %s --impl %S/Inputs/timers.c --entry refusals --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: [1, 1, 1, 1, 2, 2, 2, 2]

func.func @signal_timer(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20000 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "signal_timer"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%five : f32) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%c : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

func.func @thread_timer(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20000 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "thread_timer"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%five : f32) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%c : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

func.func @profiling_timer(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20000 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "profiling_timer"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%five : f32) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%c : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

func.func @alarm_timer(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20000 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "alarm_timer"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%five : f32) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%c : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

func.func @pending_signal(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 20000 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "pending_signal"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%five : f32) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%c : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

func.func @refusals(%out: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "refusals"} "op" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}
