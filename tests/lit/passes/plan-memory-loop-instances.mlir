// hivm-plan-memory gives an alloc one address, so a loop that still needs
// an earlier instance of a buffer it allocates when it writes the next one
// is refused at the alloc, naming the loop: a rotation through two
// iteration values (the earlier instance is passed on), and a carried
// instance read after the body wrote the next.
// RUN: not hivm-opt %s -split-input-file -hivm-plan-memory 2>&1 | FileCheck %s

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @rotate(%src: memref<16xf32, #gm>, %dst: memref<16xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %p = memref.alloc() : memref<16xf32, #ub>
    %q = memref.alloc() : memref<16xf32, #ub>
    hivm.hir.load ins(%src : memref<16xf32, #gm>) outs(%p : memref<16xf32, #ub>)
    hivm.hir.load ins(%src : memref<16xf32, #gm>) outs(%q : memref<16xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    // CHECK: [[@LINE+5]]:12: error: hivm-plan-memory: a loop carries this buffer into a later iteration and passes it on to the next iteration; with one address per alloc the earlier instance and the next share bytes (separate addresses per instance are not planned)
    // CHECK: [[@LINE+3]]:12: note: the loop ('scf.for')
    // CHECK: [[@LINE+4]]:7: note: the next instance is written here
    // CHECK: [[@LINE+5]]:7: note: the earlier instance is still used here
    %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%new = %p, %old = %q) -> (memref<16xf32, #ub>, memref<16xf32, #ub>) {
      %t = memref.alloc() : memref<16xf32, #ub>
      hivm.hir.vmul ins(%new, %old : memref<16xf32, #ub>, memref<16xf32, #ub>) outs(%t : memref<16xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %t, %new : memref<16xf32, #ub>, memref<16xf32, #ub>
    }
    hivm.hir.store ins(%r#1 : memref<16xf32, #ub>) outs(%dst : memref<16xf32, #gm>)
    return
  }
}

// -----

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @late_read(%src: memref<16xf32, #gm>, %dst: memref<16xf32, #gm>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %p = memref.alloc() : memref<16xf32, #ub>
    hivm.hir.load ins(%src : memref<16xf32, #gm>) outs(%p : memref<16xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    // CHECK: [[@LINE+3]]:12: error: hivm-plan-memory: a loop carries this buffer into a later iteration and uses it after the loop body writes the next instance
    // CHECK: [[@LINE+5]]:7: note: the earlier instance is still used here
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %p) -> (memref<16xf32, #ub>) {
      %t = memref.alloc() : memref<16xf32, #ub>
      hivm.hir.vadd ins(%p, %p : memref<16xf32, #ub>, memref<16xf32, #ub>) outs(%t : memref<16xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      hivm.hir.vsub ins(%t, %prev : memref<16xf32, #ub>, memref<16xf32, #ub>) outs(%t : memref<16xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %t : memref<16xf32, #ub>
    }
    hivm.hir.store ins(%r : memref<16xf32, #ub>) outs(%dst : memref<16xf32, #gm>)
    return
  }
}
