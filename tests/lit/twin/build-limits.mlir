// What an implementation includes is read by the compiler: a build is
// bounded in time and memory and stopped, with everything the compiler
// started, when a header is a FIFO (it would wait for a writer for ever),
// a device (/dev/zero: it would grow without end) or the build is too slow.
// RUN: rm -rf %t.bl && mkdir -p %t.bl && mkfifo %t.bl/fifo.h
// RUN: printf '#include "fifo.h"\nextern "C" void _mlir_ciface_bump(void *m) {}\n' > %t.bl/fifo.cpp
// RUN: printf '#include "/dev/zero"\nextern "C" void _mlir_ciface_bump(void *m) {}\n' > %t.bl/zero.cpp
// RUN: printf 'constexpr long spin(long n) { long s = 0; for (long i = 0; i < n; i++) for (long j = 0; j < 1000; j++) s += (i ^ j) %% 3; return s; }\nconstexpr long A0 = spin(1500);\nconstexpr long A1 = spin(1501);\nconstexpr long A2 = spin(1502);\nextern "C" void _mlir_ciface_bump(void *m) { (void)(A0 + A1 + A2); }\n' > %t.bl/slow.cpp
// RUN: for f in fifo zero slow; do sed "s|@SOURCE@|$f.cpp|" %s > %t.bl/$f.mlir; done
//
// A header that is a FIFO is seen blocking the compiler's open and refused long
// before the time limit.
// RUN: not env HIVM_TWIN_CACHE=%t.bl/cache timeout 60 hivm-run %t.bl/fifo.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: fifo.mlir:[[@LINE+25]]:3: error: compiling {{.*}}fifo.cpp for the host failed: the compiler is waiting to open {{.*}}fifo.h, a FIFO: an implementation and what it includes must be regular files
//
// /dev/zero: out of the memory limit (here 512 MiB).
// RUN: not env HIVM_TWIN_CACHE=%t.bl/cache HIVM_TWIN_BUILD_MEMORY=512 timeout 60 hivm-run %t.bl/zero.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: zero.mlir:[[@LINE+21]]:3: error: compiling {{.*}}zero.cpp for the host failed: the compiler ran out of its 512 MiB memory limit (set HIVM_TWIN_BUILD_MEMORY in MiB to change it)
//
// Too slow: stopped at the time limit (here 1 s), no compiler left running.
// RUN: not env HIVM_TWIN_CACHE=%t.bl/cache HIVM_TWIN_BUILD_TIMEOUT=1 timeout 60 hivm-run %t.bl/slow.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=SLOW
// SLOW: slow.mlir:[[@LINE+17]]:3: error: compiling {{.*}}slow.cpp for the host failed: the compiler did not finish within 1 s (set HIVM_TWIN_BUILD_TIMEOUT in seconds to change it); does the source include a FIFO or device?
// RUN: not pgrep -f '%t.bl/slow[.]cpp'
//
// The FIFO again with the time limit below the first look at what the compiler has open.
// RUN: not env HIVM_TWIN_CACHE=%t.bl/cache HIVM_TWIN_BUILD_TIMEOUT=0.2 timeout 60 hivm-run %t.bl/fifo.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=FIFOTIME
// FIFOTIME: fifo.mlir:[[@LINE+12]]:3: error: compiling {{.*}}fifo.cpp for the host failed: the compiler did not finish within 0.2 s
// RUN: not pgrep -f '%t.bl/fifo[.]cpp'
//
// A limit that is no number is refused at the op.
// RUN: not env HIVM_TWIN_CACHE=%t.bl/cache HIVM_TWIN_BUILD_TIMEOUT=soon hivm-run %t.bl/fifo.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=BADVAR
// BADVAR: fifo.mlir:[[@LINE+7]]:3: error: HIVM_TWIN_BUILD_TIMEOUT="soon" is not a number of seconds (0: no limit)
//
// Ordinary builds are unaffected by the limits.
// RUN: sed "s|@SOURCE@|%S/Inputs/bump_a.cpp|" %s > %t.bl/ok.mlir
// RUN: env HIVM_TWIN_CACHE=%t.bl/cache HIVM_TWIN_BUILD_TIMEOUT=60 hivm-run %t.bl/ok.mlir --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=OK
// OK: [1, 1, 1, 1]
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", source = "@SOURCE@"} "bump" outs(%m : memref<4xf32>)
  return
}
