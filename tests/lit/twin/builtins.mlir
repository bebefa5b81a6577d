// The builtin custom ops run natively with upstream's operand conventions.
// Their operands are filled and read back by scalar code (PIPE_S), which
// flags order around the builtins (PIPE_V).
// RUN: hivm-run %s --entry gather --arg zeros:4xf32 --print 0 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: hivm-run %s --entry select --arg zeros:2x4xf32 --print 0 2>&1 | FileCheck %s --check-prefix=SELECT
// RUN: hivm-run %s --entry atomic --arg zeros:4xi32 --arg zeros:3xi32 --print 0 --print 1 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: hivm-run %s --entry histogram --arg zeros:4xi32 --print 0 2>&1 | FileCheck %s --check-prefix=HIST

// src[i] = 10 + i; indices 3, -1 (from the end), 20 (out of range: that
// thread stops, its element stays 0) and 0.
// GATHER-NOT: error
// GATHER: [13, 25, 0, 10]
func.func @gather(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %src = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %ten = arith.constant 10.0 : f32
    %v = arith.addf %f, %ten : f32
    memref.store %v, %src[%i] : memref<16xf32, #hivm.address_space<gm>>
  }
  %idx = memref.alloc() : memref<4xi64>
  %i3 = arith.constant 3 : i64
  %im1 = arith.constant -1 : i64
  %i20 = arith.constant 20 : i64
  %i0 = arith.constant 0 : i64
  memref.store %i3, %idx[%c0] : memref<4xi64>
  memref.store %im1, %idx[%c1] : memref<4xi64>
  memref.store %i20, %idx[%c2] : memref<4xi64>
  memref.store %i0, %idx[%c3] : memref<4xi64>
  %dst = memref.alloc() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%dst : memref<4xf32>)
  %bound = arith.constant 16 : i64
  %dim = arith.constant 0 : i32
  %stride = arith.constant 1 : i64
  %end = arith.constant 4 : i32
  %start = arith.constant 0 : i32
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom "__builtin_gather_load"
      ins(%src, %idx, %bound, %dim, %stride, %end, %start
          : memref<16xf32, #hivm.address_space<gm>>, memref<4xi64>, i64, i32, i64, i32, i32)
      outs(%dst : memref<4xf32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %dst, %out : memref<4xf32> to memref<4xf32>
  return
}

// Rows 2 and 0 of a 3x4 matrix (src[r][c] = 10 r + c).
// SELECT: {{\[}}[20, 21, 22, 23],
// SELECT-NEXT: [0, 1, 2, 3]]
func.func @select(%out: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %src = memref.alloc() : memref<3x4xf32, #hivm.address_space<gm>>
  scf.for %r = %c0 to %c3 step %c1 {
    scf.for %c = %c0 to %c4 step %c1 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1)>(%r, %c)
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      memref.store %f, %src[%r, %c] : memref<3x4xf32, #hivm.address_space<gm>>
    }
  }
  %idx = memref.alloc() : memref<2xi32>
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  memref.store %two, %idx[%c0] : memref<2xi32>
  memref.store %zero, %idx[%c1] : memref<2xi32>
  %dst = memref.alloc() : memref<2x4xf32>
  %dim = arith.constant 0 : i32
  %bound = arith.constant 3 : i64
  %e0 = arith.constant 2 : i32
  %e1 = arith.constant 4 : i32
  %s0 = arith.constant 0 : i32
  %st0 = arith.constant 4 : i64
  %st1 = arith.constant 1 : i64
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=2"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %e0, %e1, %s0, %s0, %st0, %st1
          : memref<3x4xf32, #hivm.address_space<gm>>, memref<2xi32>, i32, i64, i32, i32, i32, i32, i64, i64)
      outs(%dst : memref<2x4xf32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %dst, %out : memref<2x4xf32> to memref<2x4xf32>
  return
}

// dst[1] += 5, dst[3] += 7, dst[1] += 2; each result is the old value.
// ATOMIC: [0, 7, 0, 7]
// ATOMIC-NEXT: [0, 0, 5]
func.func @atomic(%dst: memref<4xi32>, %old: memref<3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %offs = memref.alloc() : memref<3xi32>
  %vals = memref.alloc() : memref<3xi32>
  %o1 = arith.constant 1 : i32
  %o3 = arith.constant 3 : i32
  %v5 = arith.constant 5 : i32
  %v7 = arith.constant 7 : i32
  %v2 = arith.constant 2 : i32
  memref.store %o1, %offs[%c0] : memref<3xi32>
  memref.store %o3, %offs[%c1] : memref<3xi32>
  memref.store %o1, %offs[%c2] : memref<3xi32>
  memref.store %v5, %vals[%c0] : memref<3xi32>
  memref.store %v7, %vals[%c1] : memref<3xi32>
  memref.store %v2, %vals[%c2] : memref<3xi32>
  %res = memref.alloc() : memref<3xi32>
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "operate=add"} "__builtin_indirect_atomic"
      ins(%dst, %offs, %vals : memref<4xi32>, memref<3xi32>, memref<3xi32>)
      outs(%res : memref<3xi32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %res, %old : memref<3xi32> to memref<3xi32>
  return
}

// Values 0, 1, 1, 3, 5 and -1 into 4 bins: 5 and -1 (as unsigned) fall outside.
// HIST: [1, 2, 0, 1]
func.func @histogram(%bins: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %src = memref.alloc() : memref<6xi32>
  %v0 = arith.constant 0 : i32
  %v1 = arith.constant 1 : i32
  %v3 = arith.constant 3 : i32
  %v5 = arith.constant 5 : i32
  %vm = arith.constant -1 : i32
  memref.store %v0, %src[%c0] : memref<6xi32>
  memref.store %v1, %src[%c1] : memref<6xi32>
  memref.store %v1, %src[%c2] : memref<6xi32>
  memref.store %v3, %src[%c3] : memref<6xi32>
  memref.store %v5, %src[%c4] : memref<6xi32>
  memref.store %vm, %src[%c5] : memref<6xi32>
  %n = arith.constant 4 : i64
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom "__builtin_histogram" ins(%src, %n : memref<6xi32>, i64) outs(%bins : memref<4xi32>)
  return
}

// RUN: hivm-run %s --entry select2d --arg zeros:2x2x3xi32 --print 0 2>&1 | FileCheck %s --check-prefix=SELECT2
// Rows of a 4x3 matrix (src[r][c] = 10 r + c) picked by 2-d indices
// [[3, 1], [0, -2]]: the result has the indices' shape in front.
// SELECT2: {{\[}}{{\[}}[30, 31, 32],
// SELECT2-NEXT: [10, 11, 12]],
// SELECT2-NEXT: {{\[}}[0, 1, 2],
// SELECT2-NEXT: [20, 21, 22]]]
func.func @select2d(%out: memref<2x2x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %src = memref.alloc() : memref<4x3xi32, #hivm.address_space<gm>>
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %c = %c0 to %c3 step %c1 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1)>(%r, %c)
      %ki = arith.index_cast %k : index to i32
      memref.store %ki, %src[%r, %c] : memref<4x3xi32, #hivm.address_space<gm>>
    }
  }
  %idx = memref.alloc() : memref<2x2xi64>
  %i3 = arith.constant 3 : i64
  %i1 = arith.constant 1 : i64
  %i0 = arith.constant 0 : i64
  %im2 = arith.constant -2 : i64
  memref.store %i3, %idx[%c0, %c0] : memref<2x2xi64>
  memref.store %i1, %idx[%c0, %c1] : memref<2x2xi64>
  memref.store %i0, %idx[%c1, %c0] : memref<2x2xi64>
  memref.store %im2, %idx[%c1, %c1] : memref<2x2xi64>
  %dst = memref.alloc() : memref<2x2x3xi32>
  %dim = arith.constant 0 : i32
  %bound = arith.constant 4 : i64
  %e0 = arith.constant 2 : i32
  %e2 = arith.constant 3 : i32
  %s0 = arith.constant 0 : i32
  %st0 = arith.constant 3 : i64
  %st1 = arith.constant 1 : i64
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=2"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %e0, %e0, %e2, %s0, %s0, %st0, %st1
          : memref<4x3xi32, #hivm.address_space<gm>>, memref<2x2xi64>, i32, i64, i32, i32, i32, i32, i32, i64, i64)
      outs(%dst : memref<2x2x3xi32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %dst, %out : memref<2x2x3xi32> to memref<2x2x3xi32>
  return
}
