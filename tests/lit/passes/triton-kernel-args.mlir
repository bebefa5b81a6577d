// RUN: hivm-opt %s --split-input-file --triton-global-kernel-args-to-hivm-op -allow-unregistered-dialect | FileCheck %s

// A memory-based target (no hacc.target means 910B): block indices run
// z-fastest, so z is decoded first. The three program-id parameters go, with
// their argument attributes; the counts stay. The dynamic memref is flagged.
// CHECK-LABEL: func.func @grid_2d(
// CHECK-SAME: %[[BUF:.*]]: memref<?xf32> {tt.divisibility = 16 : i32}, %[[N:.*]]: i32, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK-SAME: func_dyn_memref_args = dense<[true, false, false, false, false]> : vector<5xi1>
// CHECK: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]] : i32
// CHECK: %[[XYZ:.*]] = arith.muli %[[XY]], %[[GZ]] : i32
// CHECK: annotation.mark %[[XYZ]] {logical_block_num} : i32
// CHECK: %[[B64:.*]] = hivm.hir.get_block_idx -> i64
// CHECK: %[[B:.*]] = arith.trunci %[[B64]] : i64 to i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[QZ:.*]] = arith.divsi %[[B]], %[[ONE]] : i32
// CHECK: %[[PZ:.*]] = arith.remsi %[[QZ]], %[[GZ]] : i32
// CHECK: %[[SY:.*]] = arith.muli %[[ONE]], %[[GZ]] : i32
// CHECK: %[[QY:.*]] = arith.divsi %[[B]], %[[SY]] : i32
// CHECK: %[[PY:.*]] = arith.remsi %[[QY]], %[[GY]] : i32
// CHECK: %[[SX:.*]] = arith.muli %[[SY]], %[[GY]] : i32
// CHECK: %[[QX:.*]] = arith.divsi %[[B]], %[[SX]] : i32
// CHECK: %[[PX:.*]] = arith.remsi %[[QX]], %[[GX]] : i32
// CHECK: %[[ROW:.*]] = arith.muli %[[PX]], %[[N]] : i32
// CHECK: arith.addi %[[ROW]], %[[PY]] : i32
// CHECK-NOT: %[[PZ]]
func.func @grid_2d(%buf: memref<?xf32> {tt.divisibility = 16 : i32}, %n: i32, %gx: i32, %gy: i32, %gz: i32,
                   %px: i32 {tt.unused}, %py: i32, %pz: i32)
    attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %row = arith.muli %px, %n : i32
  %i = arith.addi %row, %py : i32
  return
}

// -----

// A register-based target decodes x first; functions that are not device
// entries keep their parameters.
// CHECK-LABEL: func.func @helper(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32)
// CHECK-NOT: get_block_idx
// CHECK-LABEL: func.func @entry(%arg0: memref<16xf16>, %arg1: i32, %arg2: i32, %arg3: i32)
// CHECK-SAME: func_dyn_memref_args = dense<false> : vector<4xi1>
// CHECK: %[[B:.*]] = arith.trunci
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[B]], %[[ONE]] : i32
// CHECK: %[[PX:.*]] = arith.remsi %[[Q]], %arg1 : i32
// CHECK: "test.use"(%[[PX]])
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @helper(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
    return
  }
  func.func @entry(%m: memref<16xf16>, %gx: i32, %gy: i32, %gz: i32, %px: i32, %py: i32, %pz: i32)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    "test.use"(%px) : (i32) -> ()
    return
  }
}
