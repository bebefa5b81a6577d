// hivm-plan-memory never gives two live buffers one address: each kernel
// here runs with the same numbers unplanned and planned. Today's shapes of
// trouble: a loop body that reads its init directly, a buffer reached again
// through a cf block argument, a cf back edge, in-place reuse through
// subviews at different dynamic offsets, and a callee's buffers over its
// caller's; and (`mixed`) the twin's own placement of an alloc beside a
// pointer_cast buffer.
// RUN: hivm-opt %s -hivm-plan-memory -o %t.planned.mlir
// RUN: python3 %root/scripts/npy.py %t.s8.npy f32 8 range:1:1
// RUN: python3 %root/scripts/npy.py %t.s64.npy f32 64 range:1:1
// RUN: for f in %s %t.planned.mlir; do \
// RUN:   hivm-run $f --entry init_read --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry block_arg --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry back_edge --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry dynamic_offsets --arg %t.s64.npy --arg zeros:32xf32 --arg 0 --arg 16 --print 1; \
// RUN:   hivm-run $f --entry caller --arg %t.s8.npy --arg zeros:8xf32 --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry mixed --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry rerun --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN: done 2>&1 | FileCheck %s

// Unplanned, then planned: the same numbers.
// CHECK: [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: [3, 6, 9, 12, 15, 18, 21, 24]
// CHECK-NEXT: [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64]
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, 14, 16]
// CHECK-NEXT: [3, 6, 9, 12, 15, 18, 21, 24]
// CHECK-NEXT: [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: [3, 6, 9, 12, 15, 18, 21, 24]
// CHECK-NEXT: [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64]
// CHECK-NEXT: [2, 4, 6, 8, 10, 12, 14, 16]
// CHECK-NEXT: [3, 6, 9, 12, 15, 18, 21, 24]

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  // (1) The body reads the loop's init directly in every iteration: the
  // buffer it yields must not take the init's place.
  func.func @init_read(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%init : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (memref<8xf32, #ub>) {
      %n = memref.alloc() : memref<8xf32, #ub>
      hivm.hir.vadd ins(%acc, %init : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%n : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %n : memref<8xf32, #ub>
    }
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // (2) A buffer reached again through a cf block argument after its last
  // direct use: it is still live there.
  func.func @block_arg(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %a = memref.alloc() : memref<8xf32, #ub>
    %g = memref.alloc() : memref<8xf32, #ub>
    %o = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    cf.br ^bb1(%a : memref<8xf32, #ub>)
  ^bb1(%x: memref<8xf32, #ub>):
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%g : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %g : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%o : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%o : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // (3) A cf loop: the textually last use of %a is not its last use, the
  // back edge reads it again.
  func.func @back_edge(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %a = memref.alloc() : memref<8xf32, #ub>
    %g = memref.alloc() : memref<8xf32, #ub>
    %acc = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%acc : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    cf.br ^bb1(%c0 : index)
  ^bb1(%i: index):
    hivm.hir.vadd ins(%a, %acc : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%g : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.copy ins(%g : memref<8xf32, #ub>) outs(%acc : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %n = arith.addi %i, %c1 : index
    %p = arith.cmpi slt, %n, %c3 : index
    cf.cond_br %p, ^bb1(%n : index), ^bb2
  ^bb2:
    hivm.hir.store ins(%acc : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // (4) An elementwise op whose input and output are subviews at different
  // dynamic offsets: in place, it would read what it has already written.
  func.func @dynamic_offsets(%src: memref<64xf32, #gm>, %dst: memref<32xf32, #gm>, %i: index, %j: index) {
    %a = memref.alloc() : memref<64xf32, #ub>
    %g = memref.alloc() : memref<64xf32, #ub>
    hivm.hir.load ins(%src : memref<64xf32, #gm>) outs(%a : memref<64xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %sa = memref.subview %a[%i] [32] [1] : memref<64xf32, #ub> to memref<32xf32, strided<[1], offset: ?>, #ub>
    %sg = memref.subview %g[%j] [32] [1] : memref<64xf32, #ub> to memref<32xf32, strided<[1], offset: ?>, #ub>
    hivm.hir.vadd ins(%sa, %sa : memref<32xf32, strided<[1], offset: ?>, #ub>, memref<32xf32, strided<[1], offset: ?>, #ub>) outs(%sg : memref<32xf32, strided<[1], offset: ?>, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%sg : memref<32xf32, strided<[1], offset: ?>, #ub>) outs(%dst : memref<32xf32, #gm>)
    return
  }

  // (5) A callee's buffers must not land on the caller's live ones.
  func.func @doubler(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %t = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%t : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%t, %t : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%t : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%t : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
  func.func @caller(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>, %tmp: memref<8xf32, #gm>) {
    %a = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.call @doubler(%src, %tmp) : (memref<8xf32, #gm>, memref<8xf32, #gm>) -> ()
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%a : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // (6) The twin's own placement of an alloc beside a planned buffer.
  func.func @mixed(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : i64
    %p = hivm.hir.pointer_cast(%c0) : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%p : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %a = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.vadd ins(%p, %p : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%p, %a : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%a : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // (7) An inner loop whose init is merged with the buffer it yields runs
  // again from that init in every iteration of an outer loop.
  func.func @rerun(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %init = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%init : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    scf.for %j = %c0 to %c2 step %c1 {
      %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %init) -> (memref<8xf32, #ub>) {
        %n = memref.alloc() : memref<8xf32, #ub>
        hivm.hir.vadd ins(%x, %x : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%n : memref<8xf32, #ub>)
        hivm.hir.pipe_barrier[<PIPE_ALL>]
        scf.yield %n : memref<8xf32, #ub>
      }
      hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    return
  }
}
