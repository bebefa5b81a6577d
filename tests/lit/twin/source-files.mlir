// `source` names a regular file of at most 16 MiB; anything else is refused
// at the op, naming the attribute, before anything is read from it (a FIFO
// would block the run, /dev/zero never end).
// RUN: rm -rf %t.sf && mkdir -p %t.sf && mkfifo %t.sf/fifo.cpp && truncate -s 17M %t.sf/big.cpp && mkdir %t.sf/dir.cpp
// RUN: for f in fifo big dir; do sed "s|@SOURCE@|$f.cpp|" %s > %t.sf/$f.mlir; done && sed "s|@SOURCE@|/dev/zero|" %s > %t.sf/zero.mlir
// RUN: not timeout 20 hivm-run %t.sf/fifo.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: not timeout 20 hivm-run %t.sf/zero.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not timeout 20 hivm-run %t.sf/big.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not timeout 20 hivm-run %t.sf/dir.mlir --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=DIR
// FIFO: fifo.mlir:[[@LINE+8]]:3: error: custom op 'bump': cannot use its `source` attribute "fifo.cpp" ({{.*}}fifo.cpp): it is a FIFO, not a regular file
// ZERO: zero.mlir:[[@LINE+7]]:3: error: custom op 'bump': cannot use its `source` attribute "/dev/zero" (/dev/zero): it is a character device, not a regular file
// BIG: big.mlir:[[@LINE+6]]:3: error: custom op 'bump': cannot use its `source` attribute "big.cpp" ({{.*}}big.cpp): it is larger than 16 MiB
// DIR: dir.mlir:[[@LINE+5]]:3: error: custom op 'bump': cannot use its `source` attribute "dir.cpp" ({{.*}}dir.cpp): it is a folder, not a regular file
// The same holds for --impl files:
// RUN: not timeout 20 hivm-run %t.sf/big.mlir --impl /dev/zero --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=IMPL
// IMPL: error: cannot read implementation /dev/zero: it is a character device, not a regular file
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", source = "@SOURCE@"} "bump" outs(%m : memref<4xf32>)
  return
}
