// The CPU twin computes HIVM's compare, select and data-movement vector ops:
// each kernel fills a GM buffer with 0, 1, 2, ... (scalar stores, PIPE_S),
// loads it into UB, runs the op on PIPE_V and stores the result back; the printed buffers are the
// expected results worked out by hand. Forms the twin does not compute are
// located errors.
// RUN: hivm-run %s --entry compare_select --arg zeros:8xf32 --arg zeros:8xf32 --print 1 | FileCheck %s --check-prefix=SEL
// RUN: hivm-run %s --entry int_compare --arg zeros:8xi32 --arg zeros:8xi8 --arg zeros:8xi8 --print 1 --print 2 | FileCheck %s --check-prefix=ICMP
// RUN: hivm-run %s --entry transpose --arg zeros:6xi32 --arg zeros:6xi32 --print 1 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: hivm-run %s --entry flip --arg zeros:6xi32 --arg zeros:6xi32 --arg zeros:6xi32 --print 1 --print 2 | FileCheck %s --check-prefix=FLIP
// RUN: not hivm-run %s --entry flip_bad_axis --arg zeros:6xi32 2>&1 | FileCheck %s --check-prefix=FLIPAXIS
// RUN: hivm-run %s --entry scans --arg zeros:6xi32 --arg zeros:6xi32 --arg zeros:6xi32 --arg zeros:6xi32 --print 1 --print 2 --print 3 | FileCheck %s --check-prefix=SCAN
// RUN: hivm-run %s --entry concat --arg zeros:6xi32 --arg zeros:12xi32 --print 1 | FileCheck %s --check-prefix=CONCAT
// RUN: hivm-run %s --entry pad --arg zeros:6xi32 --arg zeros:12xi32 --print 1 | FileCheck %s --check-prefix=PAD
// RUN: hivm-run %s --entry interleave --arg zeros:6xi32 --arg zeros:12xi32 --print 1 | FileCheck %s --check-prefix=INTERLEAVE
// RUN: hivm-run %s --entry deinterleave --arg zeros:12xi32 --arg zeros:6xi32 --arg zeros:6xi32 --arg zeros:6xi32 --print 1 --print 2 --print 3 | FileCheck %s --check-prefix=DEINTERLEAVE
// RUN: not hivm-run %s --entry scan_two_dims --arg zeros:6xi32 2>&1 | FileCheck %s --check-prefix=TWODIMS
// RUN: not hivm-run %s --entry compare_broadcast --arg zeros:6xi32 2>&1 | FileCheck %s --check-prefix=OTF

// x < 3.5 selects x, else 100 (a scalar operand).
// SEL: [0, 1, 2, 3, 100, 100, 100, 100]
func.func @compare_select(%in: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %in[%i] : memref<8xf32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<8xf32, #hivm.address_space<ub>>
  %am = arith.constant 256 : i64
  %m = hivm.hir.pointer_cast(%am) : memref<8xi8, #hivm.address_space<ub>>
  %ay = arith.constant 512 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<8xf32>) outs(%x : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  %t = arith.constant 3.5 : f32
  %big = arith.constant 100.0 : f32
  hivm.hir.vcmp ins(%x, %t : memref<8xf32, #hivm.address_space<ub>>, f32) outs(%m : memref<8xi8, #hivm.address_space<ub>>) compare_mode = <lt>
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vsel ins(%m, %x, %big : memref<8xi8, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>, f32) outs(%y : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// -4..3 compared with 1: unsigned, the negative values are the largest.
// ICMP: [1, 1, 1, 1, 0, 0, 1, 1]
// ICMP: [0, 0, 0, 0, 0, 0, 1, 1]
func.func @int_compare(%in: memref<8xi32>, %uns: memref<8xi8>, %sig: memref<8xi8>) {
  %four = arith.constant 4 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 8 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    %w = arith.subi %v, %four : i32
    memref.store %w, %in[%i] : memref<8xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<8xi32, #hivm.address_space<ub>>
  %amu = arith.constant 256 : i64
  %mu = hivm.hir.pointer_cast(%amu) : memref<8xi8, #hivm.address_space<ub>>
  %ams = arith.constant 512 : i64
  %ms = hivm.hir.pointer_cast(%ams) : memref<8xi8, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<8xi32>) outs(%x : memref<8xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  %one = arith.constant 1 : i32
  hivm.hir.vcmp ins(%x, %one : memref<8xi32, #hivm.address_space<ub>>, i32) outs(%mu : memref<8xi8, #hivm.address_space<ub>>) compare_mode = <gt> is_signed : false
  hivm.hir.vcmp ins(%x, %one : memref<8xi32, #hivm.address_space<ub>>, i32) outs(%ms : memref<8xi8, #hivm.address_space<ub>>) compare_mode = <gt>
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%mu : memref<8xi8, #hivm.address_space<ub>>) outs(%uns : memref<8xi8>)
  hivm.hir.store ins(%ms : memref<8xi8, #hivm.address_space<ub>>) outs(%sig : memref<8xi8>)
  return
}

// TRANSPOSE: [0, 3, 1, 4, 2, 5]
func.func @transpose(%in: memref<6xi32>, %out: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %o = memref.expand_shape %out [[0, 1]] output_shape [3, 2] : memref<6xi32> into memref<3x2xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 256 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<3x2xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vtranspose ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<3x2xi32, #hivm.address_space<ub>>) permutation = [1, 0]
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<3x2xi32, #hivm.address_space<ub>>) outs(%o : memref<3x2xi32>)
  return
}

// [[0, 1, 2], [3, 4, 5]] reversed along its rows, then along its columns.
// FLIP: [2, 1, 0, 5, 4, 3]
// FLIP: [3, 4, 5, 0, 1, 2]
func.func @flip(%in: memref<6xi32>, %o1: memref<6xi32>, %o2: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %g1 = memref.expand_shape %o1 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %g2 = memref.expand_shape %o2 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 256 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<2x3xi32, #hivm.address_space<ub>>
  %az = arith.constant 512 : i64
  %z = hivm.hir.pointer_cast(%az) : memref<2x3xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vflip ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<2x3xi32, #hivm.address_space<ub>>) flip_axis = 1
  hivm.hir.vflip ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%z : memref<2x3xi32, #hivm.address_space<ub>>) flip_axis = 0
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<2x3xi32, #hivm.address_space<ub>>) outs(%g1 : memref<2x3xi32>)
  hivm.hir.store ins(%z : memref<2x3xi32, #hivm.address_space<ub>>) outs(%g2 : memref<2x3xi32>)
  return
}

// FLIPAXIS: vector-layout.mlir:[[@LINE+6]]:3: error: vflip: flip_axis 2 is not a dimension of the rank-2 input
func.func @flip_bad_axis(%in: memref<6xi32>) {
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 256 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<2x3xi32, #hivm.address_space<ub>>
  hivm.hir.vflip ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<2x3xi32, #hivm.address_space<ub>>) flip_axis = 2
  return
}

// Along rows, along rows from the end, and the running maximum down columns
// of [[0, 1, 2], [3, 4, 5]] with its first row negated.
// SCAN: [0, 1, 3, 3, 7, 12]
// SCAN: [3, 3, 2, 12, 9, 5]
// SCAN: [0, -1, -2, 3, 4, 5]
func.func @scans(%in: memref<6xi32>, %o1: memref<6xi32>, %o2: memref<6xi32>, %o3: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %v1 = memref.expand_shape %o1 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %v2 = memref.expand_shape %o2 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %v3 = memref.expand_shape %o3 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %an = arith.constant 256 : i64
  %n = hivm.hir.pointer_cast(%an) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay1 = arith.constant 512 : i64
  %y1 = hivm.hir.pointer_cast(%ay1) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay2 = arith.constant 768 : i64
  %y2 = hivm.hir.pointer_cast(%ay2) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay3 = arith.constant 1024 : i64
  %y3 = hivm.hir.pointer_cast(%ay3) : memref<2x3xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vcumsum ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y1 : memref<2x3xi32, #hivm.address_space<ub>>) cum_dims = [1] reverse = false
  hivm.hir.vcumsum ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y2 : memref<2x3xi32, #hivm.address_space<ub>>) cum_dims = [1] reverse = true
  %c3 = arith.constant 3 : index
  %row0 = memref.subview %x[0, 0] [1, 3] [1, 1] : memref<2x3xi32, #hivm.address_space<ub>> to memref<1x3xi32, strided<[3, 1]>, #hivm.address_space<ub>>
  %nrow0 = memref.subview %n[0, 0] [1, 3] [1, 1] : memref<2x3xi32, #hivm.address_space<ub>> to memref<1x3xi32, strided<[3, 1]>, #hivm.address_space<ub>>
  %row1 = memref.subview %x[1, 0] [1, 3] [1, 1] : memref<2x3xi32, #hivm.address_space<ub>> to memref<1x3xi32, strided<[3, 1], offset: 3>, #hivm.address_space<ub>>
  %nrow1 = memref.subview %n[1, 0] [1, 3] [1, 1] : memref<2x3xi32, #hivm.address_space<ub>> to memref<1x3xi32, strided<[3, 1], offset: 3>, #hivm.address_space<ub>>
  %zero = arith.constant 0 : i32
  hivm.hir.vsub ins(%zero, %row0 : i32, memref<1x3xi32, strided<[3, 1]>, #hivm.address_space<ub>>) outs(%nrow0 : memref<1x3xi32, strided<[3, 1]>, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%row1, %zero : memref<1x3xi32, strided<[3, 1], offset: 3>, #hivm.address_space<ub>>, i32) outs(%nrow1 : memref<1x3xi32, strided<[3, 1], offset: 3>, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vcummax ins(%n : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y3 : memref<2x3xi32, #hivm.address_space<ub>>) cum_dims = [0] reverse = false
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y1 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v1 : memref<2x3xi32>)
  hivm.hir.store ins(%y2 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v2 : memref<2x3xi32>)
  hivm.hir.store ins(%y3 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v3 : memref<2x3xi32>)
  return
}

// CONCAT: [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]
func.func @concat(%in: memref<6xi32>, %out: memref<12xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %o = memref.expand_shape %out [[0, 1]] output_shape [2, 6] : memref<12xi32> into memref<2x6xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 256 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<2x6xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vconcat dim(1) ins(%x, %x : memref<2x3xi32, #hivm.address_space<ub>>, memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<2x6xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<2x6xi32, #hivm.address_space<ub>>) outs(%o : memref<2x6xi32>)
  return
}

// One row of -1 before, one column after (a dynamic pad).
// PAD: [-1, -1, -1, -1, 0, 1, 2, -1, 3, 4, 5, -1]
func.func @pad(%in: memref<6xi32>, %out: memref<12xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %o = memref.expand_shape %out [[0, 1]] output_shape [3, 4] : memref<12xi32> into memref<3x4xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 256 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<3x4xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  %m1 = arith.constant -1 : i32
  hivm.hir.vpad ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<3x4xi32, #hivm.address_space<ub>>) low[1, 0] high[0, %c1] pad_value %m1 : i32
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<3x4xi32, #hivm.address_space<ub>>) outs(%o : memref<3x4xi32>)
  return
}

// x and 10 * x, element by element along the last dim.
// INTERLEAVE: [0, 0, 1, 10, 2, 20, 3, 30, 4, 40, 5, 50]
func.func @interleave(%in: memref<6xi32>, %out: memref<12xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 6 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<6xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %o = memref.expand_shape %out [[0, 1]] output_shape [2, 6] : memref<12xi32> into memref<2x6xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %at = arith.constant 256 : i64
  %t = hivm.hir.pointer_cast(%at) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay = arith.constant 512 : i64
  %y = hivm.hir.pointer_cast(%ay) : memref<2x6xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x3xi32>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  %ten = arith.constant 10 : i32
  hivm.hir.vmul ins(%x, %ten : memref<2x3xi32, #hivm.address_space<ub>>, i32) outs(%t : memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vinterleave ins(%x, %t : memref<2x3xi32, #hivm.address_space<ub>>, memref<2x3xi32, #hivm.address_space<ub>>) outs(%y : memref<2x6xi32, #hivm.address_space<ub>>) interleave_channel_nums = 2
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<2x6xi32, #hivm.address_space<ub>>) outs(%o : memref<2x6xi32>)
  return
}

// Even and odd positions of each row; then the odd ones alone.
// DEINTERLEAVE: [0, 2, 4, 6, 8, 10]
// DEINTERLEAVE: [1, 3, 5, 7, 9, 11]
// DEINTERLEAVE: [1, 3, 5, 7, 9, 11]
func.func @deinterleave(%in: memref<12xi32>, %o0: memref<6xi32>, %o1: memref<6xi32>, %o2: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 12 : index
  scf.for %i = %c0 to %cn step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %in[%i] : memref<12xi32>
  }
  hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]
  %g = memref.expand_shape %in [[0, 1]] output_shape [2, 6] : memref<12xi32> into memref<2x6xi32>
  %v0 = memref.expand_shape %o0 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %v1 = memref.expand_shape %o1 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %v2 = memref.expand_shape %o2 [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x6xi32, #hivm.address_space<ub>>
  %ay0 = arith.constant 256 : i64
  %y0 = hivm.hir.pointer_cast(%ay0) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay1 = arith.constant 512 : i64
  %y1 = hivm.hir.pointer_cast(%ay1) : memref<2x3xi32, #hivm.address_space<ub>>
  %ay2 = arith.constant 768 : i64
  %y2 = hivm.hir.pointer_cast(%ay2) : memref<2x3xi32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<2x6xi32>) outs(%x : memref<2x6xi32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vdeinterleave ins(%x : memref<2x6xi32, #hivm.address_space<ub>>) outs(%y0, %y1 : memref<2x3xi32, #hivm.address_space<ub>>, memref<2x3xi32, #hivm.address_space<ub>>)
  hivm.hir.vdeinterleave ins(%x : memref<2x6xi32, #hivm.address_space<ub>>) outs(%y2 : memref<2x3xi32, #hivm.address_space<ub>>) channel_num = 2 index_mode = <CHANNEL_1>
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y0 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v0 : memref<2x3xi32>)
  hivm.hir.store ins(%y1 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v1 : memref<2x3xi32>)
  hivm.hir.store ins(%y2 : memref<2x3xi32, #hivm.address_space<ub>>) outs(%v2 : memref<2x3xi32>)
  return
}

// TWODIMS: vector-layout.mlir:[[@LINE+4]]:3: error: hivm.hir.vcumsum over several dims is not supported by the CPU twin yet
func.func @scan_two_dims(%in: memref<6xi32>) {
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  hivm.hir.vcumsum ins(%x : memref<2x3xi32, #hivm.address_space<ub>>) outs(%x : memref<2x3xi32, #hivm.address_space<ub>>) cum_dims = [0, 1] reverse = false
  return
}

// OTF: vector-layout.mlir:[[@LINE+8]]:3: error: hivm.hir.vcmp with an on-the-fly broadcast is not supported by the CPU twin yet
func.func @compare_broadcast(%in: memref<6xi32>) {
  %ax = arith.constant 0 : i64
  %x = hivm.hir.pointer_cast(%ax) : memref<2x3xi32, #hivm.address_space<ub>>
  %ar = arith.constant 256 : i64
  %r = hivm.hir.pointer_cast(%ar) : memref<1x3xi32, #hivm.address_space<ub>>
  %am = arith.constant 512 : i64
  %m = hivm.hir.pointer_cast(%am) : memref<2x3xi8, #hivm.address_space<ub>>
  hivm.hir.vcmp ins(%x, %r : memref<2x3xi32, #hivm.address_space<ub>>, memref<1x3xi32, #hivm.address_space<ub>>) outs(%m : memref<2x3xi8, #hivm.address_space<ub>>) broadcast = [0]
  return
}
