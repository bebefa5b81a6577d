// Correctly synchronised kernels run clean: no sync report, exit 0, the
// right numbers. Tiled loops with flags, double buffering with two event
// ids, barriers, a C implementation that double-buffers on its own, and a
// custom op inside a synchronised loop.
// RUN: python3 %root/scripts/npy.py %t.clean-in.npy f32 256 range:-128:1
// RUN: hivm-run %s --entry tiled --arg %t.clean-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=DOUBLED --implicit-check-not=error
// RUN: hivm-run %s --entry double_buffered --arg %t.clean-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=DOUBLED --implicit-check-not=error
// RUN: hivm-run %s --entry barriers --arg %t.clean-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=TRIPLED --implicit-check-not=error
// RUN: hivm-run %s --impl %S/Inputs/pingpong.cpp --entry c_pingpong --arg %t.clean-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=DOUBLED --implicit-check-not=error
// RUN: hivm-run %s --impl %S/Inputs/ub.cpp --entry custom_in_loop --arg %t.clean-in.npy --arg zeros:256xf32 --print 1 2>&1 | FileCheck %s --check-prefix=RELU --implicit-check-not=error
// DOUBLED: [-256, -254, -252,
// DOUBLED-SAME: 250, 252, 254]
// TRIPLED: [-384, -381, -378,
// TRIPLED-SAME: 375, 378, 381]
// RELU: [0, 0, 0,
// RELU-SAME: 0, 1, 2, 3,
// RELU-SAME: 125, 126, 127]

// One UB tile reused by every iteration: the next load waits for the store.
func.func @tiled(%in: memref<256xf32>, %out: memref<256xf32>) {
  %ub = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  scf.for %i = %c0 to %c256 step %c64 {
    %s = memref.subview %in[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d = memref.subview %out[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.load ins(%s : memref<64xf32, strided<[1], offset: ?>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vadd ins(%ub, %ub : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%ub : memref<64xf32, #hivm.address_space<ub>>) outs(%d : memref<64xf32, strided<[1], offset: ?>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  }
  hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  return
}

// Ping and pong buffers, each with its own event id, so that loading one
// overlaps computing and storing the other.
func.func @double_buffered(%in: memref<256xf32>, %out: memref<256xf32>) {
  %ping = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %pong = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
  scf.for %i = %c0 to %c256 step %c128 {
    %j = arith.addi %i, %c64 : index
    %s0 = memref.subview %in[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %s1 = memref.subview %in[%j] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d0 = memref.subview %out[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d1 = memref.subview %out[%j] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.load ins(%s0 : memref<64xf32, strided<[1], offset: ?>>) outs(%ping : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.load ins(%s1 : memref<64xf32, strided<[1], offset: ?>>) outs(%pong : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vadd ins(%ping, %ping : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ping : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.vadd ins(%pong, %pong : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%pong : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%ping : memref<64xf32, #hivm.address_space<ub>>) outs(%d0 : memref<64xf32, strided<[1], offset: ?>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
    hivm.hir.store ins(%pong : memref<64xf32, #hivm.address_space<ub>>) outs(%d1 : memref<64xf32, strided<[1], offset: ?>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
  }
  hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
  return
}

// Whole-core barriers between stages, and a PIPE_V barrier between two
// vector ops on the same buffer.
func.func @barriers(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %y = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<256xf32>) outs(%x : memref<256xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vadd ins(%x, %x : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vadd ins(%y, %x : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%y : memref<256xf32, #hivm.address_space<ub>>) outs(%out : memref<256xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}

func.func @c_pingpong(%in: memref<256xf32>, %out: memref<256xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "pingpong"} "pingpong" ins(%in : memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// A custom op (vrelu in C) between a load and a store in a loop.
func.func @custom_in_loop(%in: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
  scf.for %i = %c0 to %c256 step %c64 {
    %s = memref.subview %in[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d = memref.subview %out[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.load ins(%s : memref<64xf32, strided<[1], offset: ?>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "relu"} "relu" ins(%a : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%d : memref<64xf32, strided<[1], offset: ?>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
  }
  hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
  return
}
