// The twin places a memref.alloc clear of the kernel's pointer_cast
// buffers: those whose address folds to a constant, and those whose address
// is computed at run time once they have run.
// RUN: hivm-run %s --entry runtime_address --arg zeros:8xf32 --arg 0 --print 0 2>&1 | FileCheck %s
// RUN: hivm-run %s --entry folded_address --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: [3, 3, 3, 3, 3, 3, 3, 3]

func.func @runtime_address(%dst: memref<8xf32>, %at: i64) {
  %one = arith.constant 1.0 : f32
  %p = hivm.hir.pointer_cast(%at) : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%p : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vadd ins(%p, %p : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vadd ins(%p, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%dst : memref<8xf32>)
  return
}

// The allocation comes first here; its cast's address is 0 + 0.
func.func @folded_address(%dst: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %z = arith.constant 0 : i64
  %at = arith.addi %z, %z : i64
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %p = hivm.hir.pointer_cast(%at) : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%p : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vadd ins(%p, %p : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vadd ins(%p, %a : memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%dst : memref<8xf32>)
  return
}
