// The bundled examples compute the right numbers and report no sync problem;
// each example of a sync bug is reported, with exit status 1.
// RUN: hivm-run %root/examples/custom_add/kernel.mlir --arg zeros:1xi8 --arg zeros:1xi8 --arg zeros:32xi32 --arg %root/examples/custom_add/a.npy --arg %root/examples/custom_add/b.npy --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 2 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: hivm-run %root/examples/custom_macro_add/kernel.mlir --arg zeros:32xi32 --arg %root/examples/custom_macro_add/a.npy --arg %root/examples/custom_macro_add/b.npy --print 0 2>&1 | FileCheck %s --check-prefix=MACRO
// RUN: hivm-run %root/examples/custom_macro_add/kernel.mlir --arg zeros:32xi32 --arg %root/examples/custom_macro_add/a.npy --arg %root/examples/custom_macro_add/b.npy --save 0=%t.sum.npy && hivm-run %root/examples/custom_macro_add/kernel.mlir --arg zeros:32xi32 --arg %t.sum.npy --arg %root/examples/custom_macro_add/b.npy --print 0 | FileCheck %s --check-prefix=SAVED
// RUN: hivm-run %root/examples/custom_macro_add/kernel.mlir --trace --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: not hivm-run %root/examples/sync_bugs/race.mlir --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: hivm-run %root/examples/sync_bugs/race.mlir --sync=warn --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not hivm-run %root/examples/sync_bugs/hang.mlir --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=HANG
// RUN: not hivm-run %root/examples/sync_bugs/leftover.mlir --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=LEFT
// RUN: not hivm-run %root/examples/sync_bugs/macro_slots.mlir --arg zeros:32xi32 --arg zeros:32xi32 --arg zeros:32xi32 2>&1 | FileCheck %s --check-prefix=SLOTS

// a[i] = 1 + i, b[i] = 100 + 10 i.
// ADD-NOT: error
// ADD: [101, 112, 123, 134, 145, 156, 167, 178, 189, 200, 211, 222, 233, 244, 255, 266, 277, 288, 299, 310, 321, 332, 343, 354, 365, 376, 387, 398, 409, 420, 431, 442]

// a[i] = 3 i, b[i] = 1000 - 7 i.
// MACRO-NOT: error
// MACRO: [1000, 996, 992, 988, 984, 980, 976, 972, 968, 964, 960, 956, 952, 948, 944, 940, 936, 932, 928, 924, 920, 916, 912, 908, 904, 900, 896, 892, 888, 884, 880, 876]

// The saved sum fed back in as a: (1000 - 4 i) + (1000 - 7 i).
// SAVED: [2000, 1989, 1978, 1967,

// The timeline: the macro's loads on MTE2, its handshake, the add on V, then
// the kernel's flag and the store on MTE3.
// TRACE: block 0  PIPE_MTE2  {{.*}}kernel.mlir:13:5  hivm.hir.custom_macro  reads argument 1[0, 64)  [copy_gm_to_ubuf_align_b32(dst=UB+256,
// TRACE: block 0  PIPE_MTE2  {{.*}}hivm.hir.custom_macro  set_flag for PIPE_V event 0  [set_flag(PIPE_MTE2, PIPE_V, 0)]
// TRACE-NEXT: block 0  PIPE_V     {{.*}}hivm.hir.custom_macro  wait_flag for PIPE_MTE2 event 0  [wait_flag(PIPE_MTE2, PIPE_V, 0)]
// TRACE: block 0  PIPE_V     {{.*}}hivm.hir.custom_macro  writes UB[0, 128)  [vadd(dst=UB+0, src0=UB+256, src1=UB+384
// TRACE-NEXT: block 0  PIPE_V     {{.*}}kernel.mlir:20:5  hivm.hir.set_flag  set_flag for PIPE_MTE3 event 0
// TRACE-NEXT: block 0  PIPE_MTE3  {{.*}}kernel.mlir:21:5  hivm.hir.wait_flag  wait_flag for PIPE_V event 0
// TRACE-NEXT: block 0  PIPE_MTE3  {{.*}}kernel.mlir:22:5  hivm.hir.store  reads UB[0, 128)
// TRACE-NEXT: block 0  PIPE_MTE3  {{.*}}kernel.mlir:22:5  hivm.hir.store  writes argument 0[0, 128)

// RACE: race.mlir:[[#]]:5: error: race: PIPE_MTE3 read of UB[0, 128) is not ordered after an earlier PIPE_V write of the same memory (no set_flag/wait_flag chain orders them)
// RACE: race.mlir:[[#]]:5: note: the earlier access: vadd(dst=UB+0, src0=UB+256, src1=UB+384
// RACE: hivm-run: 1 sync problem(s) found

// HANG: hang.mlir:[[#]]:5: error: wait_flag[PIPE_V, PIPE_MTE3, 1] waits for a flag that nothing has set: this hangs on hardware

// LEFT: leftover.mlir:[[#]]:5: error: set_flag[PIPE_V, PIPE_MTE3, 1] is still set when the kernel ends (no wait_flag consumed it)
// LEFT: hivm-run: 1 sync problem(s) found

// SLOTS: macro_slots.mlir:[[#]]:5: error: custom_macro 'macro_add' declares 2 internal sync slot(s) for PIPE_MTE2 -> PIPE_V but its implementation makes 1 internal set_flag/wait_flag pair(s)
// SLOTS: hivm-run: 1 sync problem(s) found
