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
// One that escapes the worker's tree is reparented to hivm-run, its subreaper, which ends it before exiting.
// RUN: hivm-run %s --impl %S/Inputs/faults.cpp --entry escape --arg zeros:16xf32 && sleep 0.3 && ! ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "hivm-test-esc"' | grep .

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

func.func @escape(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "escapes"} "escape" outs(%m : memref<16xf32>)
  return
}
