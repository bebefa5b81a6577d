// An input that is not a regular file (a pipe, a FIFO, /dev/stdin, a process
// substitution) reports no useful size: it is read to its end, not mapped.
// A genuinely empty regular file is still an empty module.
// RUN: hivm-opt <(cat %s) | FileCheck %s
// RUN: rm -f %t.fifo && mkfifo %t.fifo && { cat %s > %t.fifo & } && hivm-opt %t.fifo | FileCheck %s
// RUN: cat %s | hivm-opt /dev/stdin | FileCheck %s
// RUN: cat %s | hivm-opt - | FileCheck %s
// RUN: rm -f %t.fifo && : > %t.empty && hivm-opt %t.empty | FileCheck %s --check-prefix=EMPTY

// CHECK: func.func @from_a_pipe(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT: return %0 : i32

// EMPTY: module {
// EMPTY-NEXT: }

func.func @from_a_pipe(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
