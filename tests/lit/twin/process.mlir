// An implementation must return: exit() or _exit() with any status is an
// error, whatever it forked dies with the call (zombies left to init do not
// count: they no longer run), and a stack overflow is reported as one (not
// as Rust's own abort).
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry exit_zero --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=EXIT0
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry underscore_exit --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=UEXIT
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry stack --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=STACK
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry forks --arg zeros:16xf32 && sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-spin"' | grep .
// RUN: not hivm-run %s --impl %S/Inputs/faults.cpp --entry forks_spins --timeout 0.3 --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=SPIN
// RUN: sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-spin"' | grep .
// A daemon (double fork, setsid) is in the worker's tree as its subreaper: it dies with the call.
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry daemon --arg zeros:16xf32 && sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-dmn"' | grep .
// ... and is gone before the call counts as returned: one that goes on writing the call's output
// after it returned leaves the kernel's own numbers (it was killed after the worker, out of reach).
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry daemon_writes --arg zeros:16xf32 --print 0 | FileCheck %s --check-prefix=DWR
// RUN: sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-dwr"' | grep .
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry runs_programs --arg zeros:16xf32 --print 0 | FileCheck %s --check-prefix=PROGRAMS
// A sibling of the worker (clone with CLONE_PARENT) would be out of its tree: the worker refuses the flag.
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry sibling --arg zeros:16xf32 --print 0 | FileCheck %s --check-prefix=DWR
// RUN: sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-sib"' | grep .
// One that tries to turn off the worker's subreaping (to leave its tree) is refused: its daemon
// stays in the tree and dies with the call.
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry escape --arg zeros:16xf32
// RUN: sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-esc"' | grep .

// EXIT0: process.mlir:[[@LINE+3]]:3: error: custom op 'quit' (_mlir_ciface_exits_zero) ended the process with exit status 0 (exit() or _exit() instead of returning)
// EXIT0-NOT: panicked
func.func @exit_zero(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "exits_zero"} "quit" outs(%m : memref<16xf32>)
  return
}

// UEXIT: process.mlir:[[@LINE+2]]:3: error: custom op 'quit' (_mlir_ciface_underscore_exit) ended the process with exit status 0
func.func @underscore_exit(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "underscore_exit"} "quit" outs(%m : memref<16xf32>)
  return
}

// STACK-NOT: overflowed its stack
// STACK: process.mlir:[[@LINE+4]]:3: error: custom op 'deep' (_mlir_ciface_overflows_stack) overflowed its stack (endless recursion, or locals too large for the stack?)
// STACK-NOT: fatal runtime error
// STACK-NOT: thread
func.func @stack(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "overflows_stack"} "deep" outs(%m : memref<16xf32>)
  return
}

func.func @forks(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "forks_and_returns"} "fork" outs(%m : memref<16xf32>)
  return
}

// SPIN: process.mlir:[[@LINE+2]]:3: error: custom op 'fork' (_mlir_ciface_forks_and_spins) did not return within 0.3 s
func.func @forks_spins(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "forks_and_spins"} "fork" outs(%m : memref<16xf32>)
  return
}

func.func @daemon(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "daemonises"} "daemon" outs(%m : memref<16xf32>)
  return
}

// DWR: 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7
func.func @daemon_writes(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "daemon_writes"} "daemon" outs(%m : memref<16xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 100000 : index
  %seven = arith.constant 7.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %seven, %m[%i] : memref<16xf32>
  }
  // Long enough for a writer left running to be seen.
  %scratch = memref.alloca() : memref<1xf32>
  scf.for %k = %c0 to %n step %c1 {
    memref.store %seven, %scratch[%c0] : memref<1xf32>
  }
  return
}

// PROGRAMS: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
func.func @runs_programs(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "runs_programs"} "run" outs(%m : memref<16xf32>)
  return
}

func.func @sibling(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "sibling"} "sibling" outs(%m : memref<16xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 300000 : index
  %seven = arith.constant 7.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %seven, %m[%i] : memref<16xf32>
  }
  %scratch = memref.alloca() : memref<1xf32>
  scf.for %k = %c0 to %n step %c1 {
    memref.store %seven, %scratch[%c0] : memref<1xf32>
  }
  return
}

func.func @escape(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "escapes"} "escape" outs(%m : memref<16xf32>)
  return
}
