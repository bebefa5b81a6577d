// A kernel runs the same in the twin before and after convert-hivm-to-std:
// lowered, the custom op is a call of a declaration with
// llvm.emit_c_interface, and the twin calls its `_mlir_ciface_` entry.
// RUN: hivm-opt %root/examples/custom-add.mlir -one-shot-bufferize -convert-hivm-to-std -o %t.lowered.mlir
// RUN: cat %t.lowered.mlir | FileCheck %s --check-prefix=LOWERED
// RUN: hivm-run %root/examples/custom-add.mlir --impl %root/examples/custom_add.c --arg zeros:32xi32 --arg %root/examples/custom_add/a.npy --arg %root/examples/custom_add/b.npy --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %t.lowered.mlir --impl %root/examples/custom_add.c --arg zeros:32xi32 --arg %root/examples/custom_add/a.npy --arg %root/examples/custom_add/b.npy --print 0 2>&1 | FileCheck %s
// RUN: not hivm-run %t.lowered.mlir --arg zeros:32xi32 --arg %root/examples/custom_add/a.npy --arg %root/examples/custom_add/b.npy 2>&1 | FileCheck %s --check-prefix=NOIMPL
// LOWERED: call @custom_add_int32(
// CHECK-NOT: error
// CHECK: [101, 112, 123, 134, 145, 156, 167, 178, 189, 200, 211, 222, 233, 244, 255, 266, 277, 288, 299, 310, 321, 332, 343, 354, 365, 376, 387, 398, 409, 420, 431, 442]
// NOIMPL: error: @custom_add_int32 is only declared: pass its implementation with --impl FILE
