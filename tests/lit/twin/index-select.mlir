// __builtin_index_select takes its source rank from extra_attr, as upstream
// does (the last character, which triton-ascend writes as src_stride_len=N),
// not from the source memref: triton-ascend passes the GM source as the flat
// buffer its pointer points into.
// RUN: hivm-run %s --entry rows --arg zeros:2x2xf32 --print 0 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: hivm-run %s --entry middle --arg zeros:2x2x4xf32 --print 0 2>&1 | FileCheck %s --check-prefix=MIDDLE
// RUN: not hivm-run %s --entry no_rank --arg zeros:2x2xf32 2>&1 | FileCheck %s --check-prefix=NORANK
// RUN: not hivm-run %s --entry conflict --arg zeros:2x2xf32 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not hivm-run %s --entry columns --arg zeros:2x2xf32 2>&1 | FileCheck %s --check-prefix=COLUMNS

// triton-ascend's index_select example: a 4x4 source (10, 11, ... by rows
// and columns, 10 + 10 * row + column), rows 2 and 0, the first two columns.
// ROWS-NOT: error
// ROWS: {{\[\[}}30, 31],
// ROWS-NEXT: {{^}} [10, 11]]
func.func @rows(%out: memref<2x2xf32>) {
  %src = func.call @grid() : () -> memref<16xf32, #hivm.address_space<gm>>
  %idx = func.call @two_indices() : () -> memref<2xi32>
  %dst = memref.alloc() : memref<2x2xf32>
  %dim = arith.constant 0 : i32
  %bound = arith.constant 4 : i64
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %four = arith.constant 4 : i32
  %one = arith.constant 1 : i32
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=2"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %two, %two, %zero, %zero, %four, %one
          : memref<16xf32, #hivm.address_space<gm>>, memref<2xi32>, i32, i64, i32, i32, i32, i32, i32, i32)
      outs(%dst : memref<2x2xf32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %dst, %out : memref<2x2xf32> to memref<2x2xf32>
  return
}

// The same 16 values as a 2x2x4 source (strides 8, 4, 1), gathered along
// dim 1 by indices 1 and 0: out[a][i][c] = src[a][idx[i]][c], row 2a + idx[i] of the grid.
// MIDDLE-NOT: error
// MIDDLE: {{\[\[\[}}20, 21, 22, 23],
// MIDDLE-NEXT: {{^}} [10, 11, 12, 13]],
// MIDDLE-NEXT: {{^}} {{\[\[}}40, 41, 42, 43],
// MIDDLE-NEXT: {{^}} [30, 31, 32, 33]]]
func.func @middle(%out: memref<2x2x4xf32>) {
  %src = func.call @grid() : () -> memref<16xf32, #hivm.address_space<gm>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx = memref.alloc() : memref<2xi64>
  %i1 = arith.constant 1 : i64
  %i0 = arith.constant 0 : i64
  memref.store %i1, %idx[%c0] : memref<2xi64>
  memref.store %i0, %idx[%c1] : memref<2xi64>
  %dst = memref.alloc() : memref<2x2x4xf32>
  %dim = arith.constant 1 : i32
  %bound = arith.constant 2 : i64
  %two = arith.constant 2 : i64
  %four = arith.constant 4 : i64
  %eight = arith.constant 8 : i64
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=3"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %two, %two, %four, %zero, %zero, %zero, %eight, %four, %one
          : memref<16xf32, #hivm.address_space<gm>>, memref<2xi64>, i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
      outs(%dst : memref<2x2x4xf32>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
  memref.copy %dst, %out : memref<2x2x4xf32> to memref<2x2x4xf32>
  return
}

// Without the rank (upstream would name no library call), with a rank the
// src_stride_len entry contradicts, or gathering columns of a 2-D source
// (the library's 2-D kernel has no gather dim: it gathers rows), the twin refuses.
// NORANK: index-select.mlir:[[@LINE+15]]:3: error: __builtin_index_select: extra_attr must end in the source rank, 2 to 5 ("src_stride_len=N", {{.*}}); got ""
// CONFLICT: index-select.mlir:[[@LINE+33]]:3: error: __builtin_index_select: extra_attr must end in the source rank, 2 to 5 {{.*}}; got "src_stride_len=2,x=3"
// COLUMNS: index-select.mlir:[[@LINE+51]]:3: error: __builtin_index_select: the library's 2-D index_select gathers along dim 0 whatever the gather dim says; got 1
func.func @no_rank(%out: memref<2x2xf32>) {
  %src = func.call @grid() : () -> memref<16xf32, #hivm.address_space<gm>>
  %idx = func.call @two_indices() : () -> memref<2xi32>
  %dst = memref.alloc() : memref<2x2xf32>
  %dim = arith.constant 0 : i32
  %bound = arith.constant 4 : i64
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %four = arith.constant 4 : i32
  %one = arith.constant 1 : i32
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %two, %two, %zero, %zero, %four, %one
          : memref<16xf32, #hivm.address_space<gm>>, memref<2xi32>, i32, i64, i32, i32, i32, i32, i32, i32)
      outs(%dst : memref<2x2xf32>)
  return
}

func.func @conflict(%out: memref<2x2xf32>) {
  %src = func.call @grid() : () -> memref<16xf32, #hivm.address_space<gm>>
  %idx = func.call @two_indices() : () -> memref<2xi32>
  %dst = memref.alloc() : memref<2x2xf32>
  %dim = arith.constant 0 : i32
  %bound = arith.constant 4 : i64
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %four = arith.constant 4 : i32
  %one = arith.constant 1 : i32
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=2,x=3"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %two, %two, %zero, %zero, %four, %one
          : memref<16xf32, #hivm.address_space<gm>>, memref<2xi32>, i32, i64, i32, i32, i32, i32, i32, i32)
      outs(%dst : memref<2x2xf32>)
  return
}

func.func @columns(%out: memref<2x2xf32>) {
  %src = func.call @grid() : () -> memref<16xf32, #hivm.address_space<gm>>
  %idx = func.call @two_indices() : () -> memref<2xi32>
  %dst = memref.alloc() : memref<2x2xf32>
  %dim = arith.constant 1 : i32
  %bound = arith.constant 4 : i64
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %four = arith.constant 4 : i32
  %one = arith.constant 1 : i32
  hivm.hir.set_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.custom {extra_attr = "src_stride_len=2"} "__builtin_index_select"
      ins(%src, %idx, %dim, %bound, %two, %two, %zero, %zero, %four, %one
          : memref<16xf32, #hivm.address_space<gm>>, memref<2xi32>, i32, i64, i32, i32, i32, i32, i32, i32)
      outs(%dst : memref<2x2xf32>)
  return
}

// 10 + 10 * (i / 4) + i % 4 at element i.
func.func private @grid() -> memref<16xf32, #hivm.address_space<gm>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %src = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.divui %i, %c4 : index
    %c = arith.remui %i, %c4 : index
    %k = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1 + 10)>(%r, %c)
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    memref.store %f, %src[%i] : memref<16xf32, #hivm.address_space<gm>>
  }
  return %src : memref<16xf32, #hivm.address_space<gm>>
}

// Indices 2 and 0.
func.func private @two_indices() -> memref<2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx = memref.alloc() : memref<2xi32>
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  memref.store %two, %idx[%c0] : memref<2xi32>
  memref.store %zero, %idx[%c1] : memref<2xi32>
  return %idx : memref<2xi32>
}
