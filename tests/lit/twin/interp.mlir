// The interpreter on code without custom ops: integer and float semantics,
// control flow, memref views, HIVM data movement and vector ops, tensors.
// RUN: hivm-run %s --entry ints --arg zeros:12xi32 --print 0 | FileCheck %s --check-prefix=INTS
// RUN: hivm-run %s --entry floats --arg zeros:4xf16 --arg zeros:2xf32 --print 0 --print 1 | FileCheck %s --check-prefix=FLOATS
// RUN: hivm-run %s --entry views --arg zeros:4x4xi32 --arg zeros:2x2xi32 --arg zeros:16xi32 --print 1 --print 2 | FileCheck %s --check-prefix=VIEWS
// RUN: hivm-run %s --entry control --arg 10 --arg zeros:2xi64 --print 1 | FileCheck %s --check-prefix=CONTROL
// RUN: hivm-run %s --entry hivm_ops --arg zeros:64xf32 --arg zeros:64xf32 --print 1 2>&1 | FileCheck %s --check-prefix=HIVM
// RUN: hivm-run %s --entry tensors --arg zeros:8xf32 --arg 2.5 --print 0 | FileCheck %s --check-prefix=TENSORS
// RUN: hivm-run %s --entry blocks --blocks 4 --arg zeros:4xi32 --print 0 | FileCheck %s --check-prefix=BLOCKS

// Wrapping, signed/unsigned division and shifts, comparisons, casts.
// INTS: [-3, -1, 5, 2147483647, -2147483648, 3, -2, 7, 1, 613566, -1, 249]
func.func @ints(%out: memref<12xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %m3 = arith.constant -3 : i32
  %two = arith.constant 2 : i32
  %seven = arith.constant 7 : i32
  %max = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %m7 = arith.constant -7 : i32
  %a = arith.divsi %m7, %two : i32
  %b = arith.remsi %m7, %two : i32
  %c = arith.addi %seven, %m3 : i32
  %d = arith.addi %c, %one : i32
  %wrap = arith.addi %max, %one : i32
  %fd = arith.floordivsi %m7, %two : i32
  %cd = arith.ceildivsi %m7, %two : i32
  %ud = arith.divui %m7, %seven : i32
  %sh = arith.shrsi %m7, %seven : i32
  %x = arith.cmpi slt, %m7, %two : i32
  %y = arith.cmpi ult, %m7, %two : i32
  %sel = arith.select %y, %one, %m3 : i32
  %byte = arith.trunci %m7 : i32 to i8
  %ub = arith.extui %byte : i8 to i32
  %r = arith.subi %ub, %seven : i32
  %r2 = arith.addi %r, %seven : i32
  %v = arith.addi %a, %one : i32
  memref.store %m3, %out[%c0] : memref<12xi32>
  memref.store %b, %out[%c1] : memref<12xi32>
  memref.store %d, %out[%c2] : memref<12xi32>
  memref.store %max, %out[%c3] : memref<12xi32>
  memref.store %wrap, %out[%c4] : memref<12xi32>
  %xi = arith.extui %x : i1 to i32
  %xs = arith.addi %xi, %two : i32
  memref.store %xs, %out[%c5] : memref<12xi32>
  memref.store %v, %out[%c6] : memref<12xi32>
  %fd2 = arith.subi %one, %fd : i32
  %fd3 = arith.addi %fd2, %two : i32
  memref.store %fd3, %out[%c7] : memref<12xi32>
  %cd2 = arith.addi %cd, %c : i32
  memref.store %one, %out[%c8] : memref<12xi32>
  %ud2 = arith.divui %ud, %one : i32
  %q = arith.constant 1000 : i32
  %ud3 = arith.divui %ud2, %q : i32
  memref.store %ud3, %out[%c9] : memref<12xi32>
  memref.store %sh, %out[%c10] : memref<12xi32>
  memref.store %r2, %out[%c11] : memref<12xi32>
  return
}

// f16 rounds after each op; f32 too.
// FLOATS: [0.33325195, 65504, inf, -0]
// FLOATS: [0.33333334, 16777216]
func.func @floats(%h: memref<4xf16>, %f: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f16
  %three = arith.constant 3.0 : f16
  %third = arith.divf %one, %three : f16
  %big = arith.constant 65504.0 : f16
  %inf = arith.addf %big, %big : f16
  %zero = arith.constant 0.0 : f16
  %nz = arith.negf %zero : f16
  memref.store %third, %h[%c0] : memref<4xf16>
  memref.store %big, %h[%c1] : memref<4xf16>
  memref.store %inf, %h[%c2] : memref<4xf16>
  memref.store %nz, %h[%c3] : memref<4xf16>
  %t = arith.extf %third : f16 to f32
  %one32 = arith.constant 1.0 : f32
  %three32 = arith.constant 3.0 : f32
  %third32 = arith.divf %one32, %three32 : f32
  %p = arith.constant 16777216.0 : f32
  %p1 = arith.addf %p, %one32 : f32
  memref.store %third32, %f[%c0] : memref<2xf32>
  memref.store %p1, %f[%c1] : memref<2xf32>
  return
}

// A 2x2 window of a 4x4 matrix through subview, and a flattened copy
// through collapse_shape.
// VIEWS: {{\[}}[5, 6],
// VIEWS-NEXT: [9, 10]]
// VIEWS: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
func.func @views(%m: memref<4x4xi32>, %w: memref<2x2xi32>, %flat: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      %v = arith.index_cast %k : index to i32
      memref.store %v, %m[%i, %j] : memref<4x4xi32>
    }
  }
  %s = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<4x4xi32> to memref<2x2xi32, strided<[4, 1], offset: 5>>
  memref.copy %s, %w : memref<2x2xi32, strided<[4, 1], offset: 5>> to memref<2x2xi32>
  %f = memref.collapse_shape %m [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  memref.copy %f, %flat : memref<16xi32> to memref<16xi32>
  return
}

// scf.while and an unstructured cf loop computing the same sum 0+..+(n-1).
// CONTROL: [45, 45]
func.func @control(%n: i64, %out: memref<2xi64>) {
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.while (%i = %z, %acc = %z) : (i64, i64) -> (i64, i64) {
    %c = arith.cmpi slt, %i, %n : i64
    scf.condition(%c) %i, %acc : i64, i64
  } do {
  ^bb0(%i: i64, %acc: i64):
    %acc2 = arith.addi %acc, %i : i64
    %i2 = arith.addi %i, %one : i64
    scf.yield %i2, %acc2 : i64, i64
  }
  %c0 = arith.constant 0 : index
  memref.store %r#1, %out[%c0] : memref<2xi64>
  cf.br ^loop(%z, %z : i64, i64)
^loop(%i: i64, %acc: i64):
  %c = arith.cmpi slt, %i, %n : i64
  cf.cond_br %c, ^body, ^done
^body:
  %acc2 = arith.addi %acc, %i : i64
  %i2 = arith.addi %i, %one : i64
  cf.br ^loop(%i2, %acc2 : i64, i64)
^done:
  %c1 = arith.constant 1 : index
  memref.store %acc, %out[%c1] : memref<2xi64>
  return
}

// GM -> UB on MTE2, x + x on V, UB -> GM on MTE3, each step waiting for the
// one before: correct, so no sync report.
// HIVM-NOT: error
// HIVM: [0, 2, 4, 6, 8,
func.func @hivm_ops(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %in[%i] : memref<64xf32>
  }
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %x = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %y = hivm.hir.pointer_cast(%a1) : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<64xf32>) outs(%x : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vadd ins(%x, %x : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

// A tensor-level kernel is bufferized before it runs.
// TENSORS: [2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]
func.func @tensors(%out: memref<8xf32>, %x: f32) {
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%t = %f) -> (tensor<8xf32>) {
    %v = tensor.extract %t[%i] : tensor<8xf32>
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %w = arith.addf %v, %fi : f32
    %t2 = tensor.insert %w into %t[%i] : tensor<8xf32>
    scf.yield %t2 : tensor<8xf32>
  }
  bufferization.materialize_in_destination %r in writable %out : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}

// Each block writes its index (and the block count) to its slot.
// BLOCKS: [40, 41, 42, 43]
func.func @blocks(%out: memref<4xi32>) {
  %b = hivm.hir.get_block_idx -> i64
  %n = hivm.hir.get_block_num -> i64
  %t = arith.muli %n, %n : i64
  %ten = arith.constant 10 : i64
  %base = arith.muli %t, %ten : i64
  %quarter = arith.divsi %base, %n : i64
  %v = arith.addi %quarter, %b : i64
  %i = arith.index_cast %b : i64 to index
  %v32 = arith.trunci %v : i64 to i32
  memref.store %v32, %out[%i] : memref<4xi32>
  return
}

// RUN: hivm-run %s --entry vector_family --arg zeros:2x4xf32 --arg zeros:2x4xi32 --arg zeros:2x1xf32 --print 0 --print 1 --print 2 2>&1 | FileCheck %s --check-prefix=VEC
// Broadcast, a cast with rint (ties to even) and a row-sum reduction, with
// the vector op at tensor level (bufferized first). Consecutive dependent V
// ops need a pipe_barrier[PIPE_V] between them.
// VEC: {{\[}}[0.5, 1.5, 2.5, 3.5],
// VEC-NEXT: [0.5, 1.5, 2.5, 3.5]]
// VEC: {{\[}}[0, 2, 2, 4],
// VEC-NEXT: [0, 2, 2, 4]]
// VEC: {{\[}}[16],
// VEC-NEXT: [16]]
// VEC-NOT: race
func.func @vector_family(%f: memref<2x4xf32>, %i: memref<2x4xi32>, %s: memref<2x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = memref.alloc() : memref<1x4xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  hivm.hir.vbrc ins(%half : f32) outs(%row : memref<1x4xf32>)
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v1 = arith.constant 1.5 : f32
  %v2 = arith.constant 2.5 : f32
  %v3 = arith.constant 3.5 : f32
  memref.store %v1, %row[%c0, %c1] : memref<1x4xf32>
  memref.store %v2, %row[%c0, %c2] : memref<1x4xf32>
  memref.store %v3, %row[%c0, %c3] : memref<1x4xf32>
  hivm.hir.vbrc ins(%row : memref<1x4xf32>) outs(%f : memref<2x4xf32>) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vcast ins(%f : memref<2x4xf32>) outs(%i : memref<2x4xi32>)
  %t = bufferization.to_tensor %f restrict : memref<2x4xf32> to tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %d = hivm.hir.vadd ins(%t, %t : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %o = tensor.empty() : tensor<2x1xf32>
  hivm.hir.pipe_barrier[<PIPE_V>]
  %r = hivm.hir.vreduce <sum> ins(%d : tensor<2x4xf32>) outs(%o : tensor<2x1xf32>) reduce_dims = [1] -> tensor<2x1xf32>
  bufferization.materialize_in_destination %r in writable %s : (tensor<2x1xf32>, memref<2x1xf32>) -> ()
  return
}

// RUN: hivm-run %s --entry reductions --arg zeros:2x3xi32 --arg zeros:6xi32 --print 1 2>&1 | FileCheck %s --check-prefix=RED
// Rows [5, -2, 5] and [1, 9, 9]: max with the index of the first and of the
// last winner, a gather of row 1 by [2, 0, 1], min, and xor of row 1.
// RED-NOT: error
// RED: [5, 0, 2, 9, -2, 1]
func.func @reductions(%m: memref<2x3xi32>, %out: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v5 = arith.constant 5 : i32
  %vm2 = arith.constant -2 : i32
  %v1 = arith.constant 1 : i32
  %v9 = arith.constant 9 : i32
  memref.store %v5, %m[%c0, %c0] : memref<2x3xi32>
  memref.store %vm2, %m[%c0, %c1] : memref<2x3xi32>
  memref.store %v5, %m[%c0, %c2] : memref<2x3xi32>
  memref.store %v1, %m[%c1, %c0] : memref<2x3xi32>
  memref.store %v9, %m[%c1, %c1] : memref<2x3xi32>
  memref.store %v9, %m[%c1, %c2] : memref<2x3xi32>
  %row0 = memref.subview %m[0, 0] [1, 3] [1, 1] : memref<2x3xi32> to memref<1x3xi32, strided<[3, 1]>>
  %mx = memref.alloc() : memref<1x1xi32>
  %mi = memref.alloc() : memref<1x1xi32>
  hivm.hir.vreduce <max_with_index_left> ins(%row0 : memref<1x3xi32, strided<[3, 1]>>) outs(%mx, %mi : memref<1x1xi32>, memref<1x1xi32>) reduce_dims = [1]
  %a = memref.load %mx[%c0, %c0] : memref<1x1xi32>
  %b = memref.load %mi[%c0, %c0] : memref<1x1xi32>
  memref.store %a, %out[%c0] : memref<6xi32>
  memref.store %b, %out[%c1] : memref<6xi32>
  hivm.hir.vreduce <max_with_index_right> ins(%row0 : memref<1x3xi32, strided<[3, 1]>>) outs(%mx, %mi : memref<1x1xi32>, memref<1x1xi32>) reduce_dims = [1]
  %b2 = memref.load %mi[%c0, %c0] : memref<1x1xi32>
  memref.store %b2, %out[%c2] : memref<6xi32>
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %mn = memref.alloc() : memref<1x1xi32>
  hivm.hir.vreduce <min> ins(%row0 : memref<1x3xi32, strided<[3, 1]>>) outs(%mn : memref<1x1xi32>) reduce_dims = [1]
  %d = memref.load %mn[%c0, %c0] : memref<1x1xi32>
  memref.store %d, %out[%c4] : memref<6xi32>
  %x = memref.alloc() : memref<2x1xi32>
  hivm.hir.vreduce <xori> ins(%m : memref<2x3xi32>) outs(%x : memref<2x1xi32>) reduce_dims = [1]
  %x1 = memref.load %x[%c1, %c0] : memref<2x1xi32>
  memref.store %x1, %out[%c5] : memref<6xi32>
  %src = memref.subview %m[1, 0] [1, 3] [1, 1] : memref<2x3xi32> to memref<1x3xi32, strided<[3, 1], offset: 3>>
  %gi = memref.alloc() : memref<1x3xi32>
  %g = memref.alloc() : memref<1x3xi32>
  %i2 = arith.constant 2 : i32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  memref.store %i2, %gi[%c0, %c0] : memref<1x3xi32>
  memref.store %i0, %gi[%c0, %c1] : memref<1x3xi32>
  memref.store %i1, %gi[%c0, %c2] : memref<1x3xi32>
  hivm.hir.vgather ins(%src : memref<1x3xi32, strided<[3, 1], offset: 3>>) indices(%gi : memref<1x3xi32>) outs(%g : memref<1x3xi32>) gather_axis = 1
  %g0 = memref.load %g[%c0, %c0] : memref<1x3xi32>
  memref.store %g0, %out[%c3] : memref<6xi32>
  return
}

// RUN: hivm-run %s --entry more_vector --arg zeros:4xi32 --arg zeros:4xf32 --print 0 --print 1 2>&1 | FileCheck %s --check-prefix=MORE
// x = [0, 1, 2, 3]: not(x xor 5) on i32, and pow(x, 2) + rsqrt(4) on f32.
// MORE-NOT: error
// MORE: [-6, -5, -8, -7]
// MORE: [0.5, 1.5, 4.5, 9.5]
func.func @more_vector(%i: memref<4xi32>, %f: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ub0 = arith.constant 0 : i64
  %ub1 = arith.constant 64 : i64
  %ub2 = arith.constant 128 : i64
  %ub3 = arith.constant 192 : i64
  %x = hivm.hir.pointer_cast(%ub0) : memref<4xi32, #hivm.address_space<ub>>
  %y = hivm.hir.pointer_cast(%ub1) : memref<4xi32, #hivm.address_space<ub>>
  %fx = hivm.hir.pointer_cast(%ub2) : memref<4xf32, #hivm.address_space<ub>>
  %fy = hivm.hir.pointer_cast(%ub3) : memref<4xf32, #hivm.address_space<ub>>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = arith.index_cast %k : index to i32
    memref.store %v, %x[%k] : memref<4xi32, #hivm.address_space<ub>>
    %fv = arith.sitofp %v : i32 to f32
    memref.store %fv, %fx[%k] : memref<4xf32, #hivm.address_space<ub>>
  }
  // vxor and vpow take vectors only (upstream's VectorOnlyTrait<1>): the
  // scalars are broadcast first.
  %ub4 = arith.constant 256 : i64
  %ub5 = arith.constant 320 : i64
  %fives = hivm.hir.pointer_cast(%ub4) : memref<4xi32, #hivm.address_space<ub>>
  %twos = hivm.hir.pointer_cast(%ub5) : memref<4xf32, #hivm.address_space<ub>>
  %five = arith.constant 5 : i32
  hivm.hir.vbrc ins(%five : i32) outs(%fives : memref<4xi32, #hivm.address_space<ub>>)
  %two = arith.constant 2.0 : f32
  hivm.hir.vbrc ins(%two : f32) outs(%twos : memref<4xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vxor ins(%x, %fives : memref<4xi32, #hivm.address_space<ub>>, memref<4xi32, #hivm.address_space<ub>>) outs(%y : memref<4xi32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vnot ins(%y : memref<4xi32, #hivm.address_space<ub>>) outs(%y : memref<4xi32, #hivm.address_space<ub>>)
  hivm.hir.vpow ins(%fx, %twos : memref<4xf32, #hivm.address_space<ub>>, memref<4xf32, #hivm.address_space<ub>>) outs(%fy : memref<4xf32, #hivm.address_space<ub>>)
  %four = arith.constant 4.0 : f32
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vbrc ins(%four : f32) outs(%fx : memref<4xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vrsqrt ins(%fx : memref<4xf32, #hivm.address_space<ub>>) outs(%fx : memref<4xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%fy, %fx : memref<4xf32, #hivm.address_space<ub>>, memref<4xf32, #hivm.address_space<ub>>) outs(%fy : memref<4xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%y : memref<4xi32, #hivm.address_space<ub>>) outs(%i : memref<4xi32>)
  hivm.hir.store ins(%fy : memref<4xf32, #hivm.address_space<ub>>) outs(%f : memref<4xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

// RUN: hivm-run %s --entry matmul --arg %S/Inputs/mat_a.npy --arg %S/Inputs/mat_b.npy --arg zeros:2x2xf32 --arg zeros:2x2xf32 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=MM
// A = [[1, 2, 3], [4, 5, 6]] (f16), B = [[1, 0], [0, 1], [1, 1]]; then with
// B given transposed (B^T = [[1, 0, 1], [0, 1, 1]]).
// MM-NOT: error
// MM: {{\[}}[4, 5],
// MM-NEXT: [10, 11]]
// MM: {{\[}}[4, 5],
// MM-NEXT: [10, 11]]
func.func @matmul(%a: memref<2x3xf16>, %b: memref<3x2xf16>, %c: memref<2x2xf32>, %d: memref<2x2xf32>) {
  hivm.hir.matmul ins(%a, %b : memref<2x3xf16>, memref<3x2xf16>) outs(%c : memref<2x2xf32>)
  %bt = memref.alloc() : memref<2x3xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %b[%i, %j] : memref<3x2xf16>
      memref.store %v, %bt[%j, %i] : memref<2x3xf16>
    }
  }
  hivm.hir.matmul ins(%a, %bt : memref<2x3xf16>, memref<2x3xf16>) outs(%d : memref<2x2xf32>) b_transpose
  return
}
