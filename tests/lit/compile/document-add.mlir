// The CustomOp document's kernel at the linalg stage, compiled to HIVM: a and b
// are loaded into UB, the custom op adds them there on the vector pipe, the
// sum is stored; the solver hands MTE2 -> V and V -> MTE3 over with flags.
// The compiled kernel runs on the twin and gives a + b.
// RUN: hivm-compile %root/examples/custom_add/kernel.mlir -o %t.hivm.mlir
// RUN: cat %t.hivm.mlir | FileCheck %s
// RUN: cp %root/examples/custom_add/add.cpp %t.dir.add.cpp
// RUN: sed 's|source = "add.cpp"|source = "%t.dir.add.cpp"|' %t.hivm.mlir > %t.run.mlir
// RUN: hivm-run %t.run.mlir --arg 0 --arg zeros:1xi8 --arg zeros:1xi8 --arg zeros:32xi32 --arg %root/examples/custom_add/a.npy --arg %root/examples/custom_add/b.npy --arg 1 --arg 1 --arg 1 --print 3 | FileCheck %s --check-prefix=SUM

// CHECK-LABEL: func.func @triton_custom_add(
// CHECK-SAME: %arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}
// CHECK-SAME: hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>
// CHECK: hivm.hir.vbrc ins(%{{.*}} : i32) outs(%[[OUT:[^ ]+]] : memref<32xi32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.load ins(%{{.*}} : memref<32xi32, strided<[1]>, #hivm.address_space<gm>>) outs(%[[A:[^ ]+]] : memref<32xi32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.load ins(%{{.*}} : memref<32xi32, strided<[1]>, #hivm.address_space<gm>>) outs(%[[B:[^ ]+]] : memref<32xi32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: hivm.hir.custom {{.*}}symbol = "custom_add_int32"} "add" ins(%[[A]], %[[B]] : {{.*}}) outs(%[[OUT]] : memref<32xi32, #hivm.address_space<ub>>)
// CHECK: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK: hivm.hir.store ins(%[[OUT]] : memref<32xi32, #hivm.address_space<ub>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: bufferization.

// SUM: {{.*}}[101, 112, 123, 134, 145, 156, 167, 178, 189, 200, 211, 222, 233, 244, 255, 266, 277, 288, 299, 310, 321, 332, 343, 354, 365, 376, 387, 398, 409, 420, 431, 442]
