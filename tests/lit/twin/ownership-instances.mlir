// The twin's ownership check tells apart the instances one defining op
// makes in a loop: reading through the instance an earlier iteration made
// bytes a later instance has written over is an error (a loop rotating a
// buffer through its iteration values with one address), while a loop
// that makes a fresh buffer at the same address each iteration, the old
// one dead, runs clean.
// RUN: python3 %root/scripts/npy.py %t.s8.npy f32 8 range:1:1
// RUN: not hivm-run %s --entry rotate --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=ROT
// RUN: hivm-run %s --entry fresh --arg %t.s8.npy --arg zeros:8xf32 --print 1 2>&1 | FileCheck %s --check-prefix=FRESH --implicit-check-not=error

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  // ROT: ownership-instances.mlir:[[@LINE+18]]:7: error: reads UB byte 64 through the buffer of 'hivm.hir.pointer_cast' at {{.*}}, but since it wrote that byte a later instance of the same buffer (another run of 'hivm.hir.pointer_cast' at {{.*}}) has written over it: two live buffers share these bytes
  // ROT: note: the buffer read is made by 'hivm.hir.pointer_cast' at {{.*}}ownership-instances.mlir:[[@LINE+16]]:12
  // ROT: note: the buffer that took the bytes is made by 'hivm.hir.pointer_cast' at {{.*}}ownership-instances.mlir:[[@LINE+15]]:12
  // ROT: note: its last write was by 'hivm.hir.vmul'
  func.func @rotate(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %a0 = arith.constant 0 : i64
    %a32 = arith.constant 32 : i64
    %a64 = arith.constant 64 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %p = hivm.hir.pointer_cast(%a0) : memref<8xf32, #ub>
    %q = hivm.hir.pointer_cast(%a32) : memref<8xf32, #ub>
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%p : memref<8xf32, #ub>)
    hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%q : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%new = %p, %old = %q) -> (memref<8xf32, #ub>, memref<8xf32, #ub>) {
      %t = hivm.hir.pointer_cast(%a64) : memref<8xf32, #ub>
      hivm.hir.vmul ins(%new, %old : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%t : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %t, %new : memref<8xf32, #ub>, memref<8xf32, #ub>
    }
    hivm.hir.store ins(%r#1 : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }

  // FRESH: arg 1 (memref<8xf32>): [3, 6, 9, 12, 15, 18, 21, 24]
  func.func @fresh(%src: memref<8xf32, #gm>, %dst: memref<8xf32, #gm>) {
    %a0 = arith.constant 0 : i64
    %a32 = arith.constant 32 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c0f = arith.constant 0.0 : f32
    %acc = hivm.hir.pointer_cast(%a0) : memref<8xf32, #ub>
    hivm.hir.vbrc ins(%c0f : f32) outs(%acc : memref<8xf32, #ub>)
    scf.for %i = %c0 to %c3 step %c1 {
      %t = hivm.hir.pointer_cast(%a32) : memref<8xf32, #ub>
      hivm.hir.load ins(%src : memref<8xf32, #gm>) outs(%t : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      hivm.hir.vadd ins(%acc, %t : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%acc : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    hivm.hir.store ins(%acc : memref<8xf32, #ub>) outs(%dst : memref<8xf32, #gm>)
    return
  }
}
