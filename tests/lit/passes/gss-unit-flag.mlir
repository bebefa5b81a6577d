// Unit flags (enable-unit-flag): a local matmul and the fixpipe draining
// its L0C buffer hand the buffer over through per-unit flags instead of a
// set/wait pair, gated on the loop iteration where only some iterations
// hand over. Without the option the set/wait pair stays.
// RUN: hivm-opt %s -split-input-file -hivm-graph-sync-solver="enable-unit-flag=true" | FileCheck %s
// RUN: hivm-opt %s -split-input-file -hivm-graph-sync-solver="solver-version=v2 enable-unit-flag=true" | FileCheck %s
// RUN: hivm-opt %s -split-input-file -hivm-graph-sync-solver | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @handover(
// CHECK-NOT: <PIPE_FIX>
// CHECK: hivm.hir.mmadL1 {unit_flag_group_id = 0 : i64} {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]){{$}}
// CHECK-NOT: <PIPE_FIX>
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, unit_flag_group_id = 0 : i64} {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]){{$}}
// OFF-LABEL: func.func @handover(
// OFF: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// OFF-NOT: unit_flag
// OFF: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]

// A matmul and the fixpipe that drains its L0C buffer in one block hand
// the buffer over with unit flags instead of a set/wait pair.
func.func @handover(%gm: memref<256xf32, #hivm.address_space<gm>>, %a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<cbuf>>) {
  %c0_i64 = arith.constant 0 : i64
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %cc = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%cc : memref<256xf32, #hivm.address_space<cc>>) outs(%gm : memref<256xf32, #hivm.address_space<gm>>)
  return
}

// -----

// CHECK-LABEL: func.func @loop_two_matmuls(
// CHECK-NOT: <PIPE_FIX>
// CHECK: scf.for %arg3 = %c0_i32 to %c4_i32 step %c1_i32 {{.*}}i32 {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %arg3, %c1_i32 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %c4_i32 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %c0_i32, %arg3 : i32
// (Each matmul takes the bracket's ids and the loop's parity: its sync_related_args.)
// CHECK: %[[MID:.*]] = arith.constant true
// CHECK-NEXT: hivm.hir.mmadL1 {unit_flag_group_id = 0 : i64} {{.*}} unit_flag_mode([#hivm.unit_flag<DISABLED>, #hivm.unit_flag<ENABLED_WITHOUT_UPDATE>, #hivm.unit_flag<ENABLED_WITHOUT_UPDATE>]) unit_flag_cond(%[[FIRST]], %[[LAST]], %[[MID]])
// CHECK: hivm.hir.mmadL1 {unit_flag_group_id = 0 : i64} {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]){{$}}
// CHECK-NEXT: hivm.hir.fixpipe {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]){{$}}
// CHECK-NEXT: }
// CHECK-NOT: <PIPE_FIX>
// CHECK: return

// In a loop, the fixpipe of one iteration also hands the buffer back to the
// next iteration's matmul; the first matmul of the body, which only waits
// for that, is gated on the iteration.
func.func @loop_two_matmuls(%gm: memref<256xf32, #hivm.address_space<gm>>, %a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<cbuf>>) {
  %c0_i64 = arith.constant 0 : i64
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %cc = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<cc>>
  scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
    hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
    hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {enable_nz2nd} ins(%cc : memref<256xf32, #hivm.address_space<cc>>) outs(%gm : memref<256xf32, #hivm.address_space<gm>>)
  }
  return
}

// -----

// CHECK-LABEL: func.func @after_loop(
// CHECK: scf.for %arg3 = %c0_i32 to %c4_i32 step %c1_i32 {{.*}}i32 {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %arg3, %c1_i32 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %c4_i32 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %c0_i32, %arg3 : i32
// A loop that runs once must set (its one iteration is also the last):
// the first-iteration mode is gated on first and not last. Upstream gates
// it on first alone, and that loop hangs.
// CHECK: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[NOT_LAST:.*]] = arith.xori %[[LAST]], %[[T]] : i1
// CHECK-NEXT: %[[ONLY_FIRST:.*]] = arith.andi %[[FIRST]], %[[NOT_LAST]] : i1
// CHECK-NEXT: hivm.hir.mmadL1 {{.*}} unit_flag_mode([#hivm.unit_flag<DISABLED>, #hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%[[ONLY_FIRST]], %[[LAST]])
// CHECK-NOT: <PIPE_FIX>
// CHECK: %[[RAN:.*]] = arith.cmpi slt, %c0_i32, %c4_i32 : i32
// The condition upstream builds for a second mode, then drops with it.
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: hivm.hir.fixpipe {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%[[RAN]])

// The matmul in a loop, the fixpipe after it: only the last iteration
// hands over, and the fixpipe waits only if the loop ran.
func.func @after_loop(%gm: memref<256xf32, #hivm.address_space<gm>>, %a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<cbuf>>) {
  %c0_i64 = arith.constant 0 : i64
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %cc = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<cc>>
  scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
    hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {enable_nz2nd} ins(%cc : memref<256xf32, #hivm.address_space<cc>>) outs(%gm : memref<256xf32, #hivm.address_space<gm>>)
  return
}

// -----

// CHECK-LABEL: func.func @if_in_loop(
// CHECK-NOT: unit_flag
// CHECK: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NOT: unit_flag
// CHECK: return

// Under an `if` inside a loop there is no handover: the set/wait stays.
func.func @if_in_loop(%gm: memref<256xf32, #hivm.address_space<gm>>, %a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<cbuf>>, %p: i1) {
  %c0_i64 = arith.constant 0 : i64
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %cc = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<cc>>
  scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
    scf.if %p {
      hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
      hivm.hir.fixpipe {enable_nz2nd} ins(%cc : memref<256xf32, #hivm.address_space<cc>>) outs(%gm : memref<256xf32, #hivm.address_space<gm>>)
    }
  }
  return
}

// -----

// The loop bound is computed after the matmul: the matmul cannot be gated on
// "the loop runs", so the set/wait stays.
// CHECK-LABEL: func.func @late_bound(
// CHECK-NOT: unit_flag
// CHECK: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NOT: unit_flag
// CHECK: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NOT: unit_flag
// CHECK: return
func.func @late_bound(%gm: memref<256xf32, #hivm.address_space<gm>>, %a: memref<16xf32, #hivm.address_space<cbuf>>, %b: memref<16xf32, #hivm.address_space<cbuf>>, %n: i32) {
  %c0_i64 = arith.constant 0 : i64
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %cc = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<cc>>
  hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cc : memref<256xf32, #hivm.address_space<cc>>)
  %ub = arith.addi %n, %c1_i32 : i32
  scf.for %i = %c0_i32 to %ub step %c1_i32 : i32 {
    hivm.hir.fixpipe {enable_nz2nd} ins(%cc : memref<256xf32, #hivm.address_space<cc>>) outs(%gm : memref<256xf32, #hivm.address_space<gm>>)
  }
  return
}
