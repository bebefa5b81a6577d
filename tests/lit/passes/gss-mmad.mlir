// A local matmul (mmadL1) as the sync solver sees it (spec sync-solver.md
// §3.6): loads into L0 on MTE1 and the multiplication on M. The DMA
// handshakes that land on its loads are not emitted: their ids become the
// op's sync_related_args (waits for A and B, releases of A and B, the
// iteration parity inside loops, then the ids 0 and 1 its library
// alternates), and the first and last matmul are bracketed by an M -> MTE1
// handshake on ids 0 and 1.
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v1 -split-input-file | FileCheck %s
// RUN: hivm-opt %s -hivm-graph-sync-solver=solver-version=v2 -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cube(
// Ids handed to the matmul are constants at the top of the function.
// CHECK-NEXT: %[[R0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[W0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[W1:.*]] = arith.constant 1 : i64
// The two L1 fills overlap in time, so their handshakes take ids 0 and 1.
// CHECK: hivm.hir.nd2nz
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.nd2nz
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
// CHECK-NEXT: %[[NONE:.*]] = arith.constant -1 : i64
// CHECK-NEXT: %[[B0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[B1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
// No wait_flag before the matmul: its library waits on the args.
// CHECK-NEXT: hivm.hir.mmadL1 {{.*}} sync_related_args(%[[W0]], %[[W1]], %[[R0]], %[[NONE]], %[[NONE]], %[[B0]], %[[B1]] : i64, i64, i64, i64, i64, i64, i64)
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.fixpipe
// Refilling A waits for the matmul's release of A (set by its library).
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.nd2nz
// CHECK-NEXT: return
func.func @cube(%lhs: memref<256xf16, #hivm.address_space<gm>>, %rhs: memref<256xf16, #hivm.address_space<gm>>, %res: memref<256xf32, #hivm.address_space<gm>>) {
  %true = arith.constant true
  %c16 = arith.constant 16 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 512 : i64
  %l1a = hivm.hir.pointer_cast(%a0) : memref<256xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%a1) : memref<256xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%a0) : memref<256xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%lhs : memref<256xf16, #hivm.address_space<gm>>) outs(%l1a : memref<256xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%rhs : memref<256xf16, #hivm.address_space<gm>>) outs(%l1b : memref<256xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c16, %c16, %c16 : memref<256xf16, #hivm.address_space<cbuf>>, memref<256xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<256xf32, #hivm.address_space<cc>>) outs(%res : memref<256xf32, #hivm.address_space<gm>>)
  hivm.hir.nd2nz {dst_continuous} ins(%rhs : memref<256xf16, #hivm.address_space<gm>>) outs(%l1a : memref<256xf16, #hivm.address_space<cbuf>>)
  return
}

// -----

// CHECK-LABEL: func.func @cube_loop(
// CHECK: hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
// CHECK-NEXT: scf.for
// In a loop the matmul also gets the iteration counter.
// CHECK-NEXT: %[[CNT:.*]] = hivm.hir.multi_buffer_counter -> i64
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[CNT]] : i64 to index
// CHECK-NEXT: %[[PAR:.*]] = arith.index_cast %[[IDX]] : index to i64
// Every slot is filled, so no -1 for an unfilled one is left behind.
// CHECK: hivm.hir.wait_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.mmadL1 {{.*}} sync_related_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[PAR]], %{{[^,]*}}, %{{[^,]*}} : i64, i64, i64, i64, i64, i64, i64)
// CHECK: {{^ *}}}
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
func.func @cube_loop(%lhs: memref<256xf16, #hivm.address_space<gm>>, %rhs: memref<256xf16, #hivm.address_space<gm>>, %res: memref<256xf32, #hivm.address_space<gm>>, %n: index) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 512 : i64
  %l1a = hivm.hir.pointer_cast(%a0) : memref<256xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%a1) : memref<256xf16, #hivm.address_space<cbuf>>
  %acc = hivm.hir.pointer_cast(%a0) : memref<256xf32, #hivm.address_space<cc>>
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.nd2nz {dst_continuous} ins(%lhs : memref<256xf16, #hivm.address_space<gm>>) outs(%l1a : memref<256xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%rhs : memref<256xf16, #hivm.address_space<gm>>) outs(%l1b : memref<256xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c16, %c16, %c16 : memref<256xf16, #hivm.address_space<cbuf>>, memref<256xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {enable_nz2nd} ins(%acc : memref<256xf32, #hivm.address_space<cc>>) outs(%res : memref<256xf32, #hivm.address_space<gm>>)
  }
  return
}
