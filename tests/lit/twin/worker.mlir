// Implementations run in one long-lived worker process, handed each call
// through shared memory. Buffers made after the worker started are mapped
// into it (and the freed ones' addresses reused by the next block's), and
// what a call leaves running (here a thread) dies before the next call.
// RUN: hivm-run %s --impl %S/Inputs/worker.cpp --entry fresh --blocks 3 --arg zeros:3x16xf32 --print 0 | FileCheck %s --check-prefix=FRESH
// RUN: hivm-run %s --impl %S/Inputs/worker.cpp --entry thread --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=THREAD
// A call's pending alarm is cancelled before the next call.
// RUN: hivm-run %s --impl %S/Inputs/worker.cpp --entry alarm --arg zeros:4xf32
// Thousands of buffers, with and without a worker alive, need no more
// descriptors than the process has.
// RUN: (ulimit -n 512 && hivm-run %s --impl %S/Inputs/worker.cpp --entry many_buffers --arg zeros:16xf32 --print 0) | FileCheck %s --check-prefix=MANY

// Each block bumps 4 fresh GM buffers to 1 and adds them into its row of
// %acc (blocks run at once on the NPU: each has its own).
// FRESH: {{\[}}[4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
// FRESH-NEXT: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
// FRESH-NEXT: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]]
func.func @fresh(%all: memref<3x16xf32>) attributes {hacc.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %acc = memref.subview %all[%bi, 0] [1, 16] [1, 1] : memref<3x16xf32> to memref<16xf32, strided<[1], offset: ?>>
  scf.for %i = %c0 to %c4 step %c1 {
    %g = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "bump"} "bump" outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "add_into"} "add_into" ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%acc : memref<16xf32, strided<[1], offset: ?>>)
  }
  return
}

// The thread would write 99 into element 1 while the second call naps.
// THREAD: [1, 0, 0, 0]
func.func @thread(%out: memref<4xf32>) attributes {hacc.entry} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "leaves_thread"} "thread" outs(%out : memref<4xf32>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "nap"} "nap" outs(%out : memref<4xf32>)
  return
}

func.func @alarm(%out: memref<4xf32>) attributes {hacc.entry} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "sets_alarm"} "alarm" outs(%out : memref<4xf32>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "long_nap"} "nap" outs(%out : memref<4xf32>)
  return
}

// 1500 GM buffers before the first call, 1500 more after it; the last
// one's values are added in.
// MANY: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
func.func @many_buffers(%acc: memref<16xf32>) attributes {hacc.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1500 : index
  %one = arith.constant 1.0 : f32
  %first = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %acc) -> (memref<16xf32>) {
    %g = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
    %c = memref.cast %g : memref<16xf32, #hivm.address_space<gm>> to memref<16xf32, #hivm.address_space<gm>>
    scf.yield %prev : memref<16xf32>
  }
  %g1 = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "bump"} "bump" outs(%g1 : memref<16xf32, #hivm.address_space<gm>>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "add_into"} "add_into" ins(%g1 : memref<16xf32, #hivm.address_space<gm>>) outs(%acc : memref<16xf32>)
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%b = %g1) -> (memref<16xf32, #hivm.address_space<gm>>) {
    %g = memref.alloc() : memref<16xf32, #hivm.address_space<gm>>
    scf.yield %g : memref<16xf32, #hivm.address_space<gm>>
  }
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "bump"} "bump" outs(%last : memref<16xf32, #hivm.address_space<gm>>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "add_into"} "add_into" ins(%last : memref<16xf32, #hivm.address_space<gm>>) outs(%acc : memref<16xf32>)
  return
}
