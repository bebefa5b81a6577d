// Loops carrying a buffer they allocate that hivm-plan-memory still
// plans with one address per alloc, because each earlier instance is done
// with when the next is written (read by the writing elementwise op
// itself, in a scf.for, a scf.while and a nested loop), run to the same
// numbers planned and unplanned.
// RUN: hivm-opt %s -hivm-plan-memory -o %t.planned.mlir
// RUN: python3 %root/scripts/npy.py %t.s8.npy f32 8 range:1:1
// RUN: for f in %s %t.planned.mlir; do \
// RUN:   hivm-run $f --entry chain --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry while_chain --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN:   hivm-run $f --entry nested_chain --arg %t.s8.npy --arg zeros:8xf32 --print 1; \
// RUN: done 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK-COUNT-2: arg 1 (memref<8xf32>): [8, 16, 24, 32, 40, 48, 56, 64]
// CHECK-NEXT: arg 1 (memref<8xf32>): [4, 8, 12, 16, 20, 24, 28, 32]
// CHECK-NEXT: arg 1 (memref<8xf32>): [5, 10, 15, 20, 25, 30, 35, 40]

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @chain(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%init : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %init) -> (memref<8xf32, #ub>) {
      %n = memref.alloc() : memref<8xf32, #ub>
      hivm.hir.vadd ins(%x, %x : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%n : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %n : memref<8xf32, #ub>
    }
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }
  func.func @while_chain(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%init : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r:2 = scf.while (%i = %c0, %x = %init) : (index, memref<8xf32, #ub>) -> (index, memref<8xf32, #ub>) {
      %go = arith.cmpi slt, %i, %c3 : index
      scf.condition(%go) %i, %x : index, memref<8xf32, #ub>
    } do {
    ^bb0(%j: index, %y: memref<8xf32, #ub>):
      %n = memref.alloc() : memref<8xf32, #ub>
      hivm.hir.vadd ins(%y, %init : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%n : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      %k = arith.addi %j, %c1 : index
      scf.yield %k, %n : index, memref<8xf32, #ub>
    }
    hivm.hir.store ins(%r#1 : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }
  func.func @nested_chain(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %init = memref.alloc() : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%init : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %init) -> (memref<8xf32, #ub>) {
      %r2 = scf.for %j = %c0 to %c2 step %c1 iter_args(%y = %x) -> (memref<8xf32, #ub>) {
        %n = memref.alloc() : memref<8xf32, #ub>
        hivm.hir.vadd ins(%y, %init : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%n : memref<8xf32, #ub>)
        hivm.hir.pipe_barrier[<PIPE_ALL>]
        scf.yield %n : memref<8xf32, #ub>
      }
      scf.yield %r2 : memref<8xf32, #ub>
    }
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }
}
