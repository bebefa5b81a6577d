// Buffers that do not fit in UB side by side share places once dead; the
// sync solver orders the store of a buffer before the load into its place
// (MTE3 -> MTE2), and the twin finds every element copied and no race.
// RUN: python3 %root/scripts/npy.py %t.g.npy f32 71680 range:0:1
// RUN: hivm-opt %s -hivm-plan-memory -hivm-graph-sync-solver -o %t.mlir
// RUN: hivm-opt %t.mlir | FileCheck %s --check-prefix=IR
// RUN: hivm-run %t.mlir --arg %t.g.npy --arg zeros:71680xf32 --print 1 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=error
// IR: hivm.hir.pointer_cast(%c0_i64)
// IR: hivm.hir.pointer_cast(%c57344_i64)
// IR: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>
// IR: hivm.hir.pointer_cast(%c0_i64)
// OUT: [0, 1, 2, 3,
// OUT-SAME: 14335, 14336, 14337,
// OUT-SAME: 71677, 71678, 71679]
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k(%g: memref<71680xf32, #hivm.address_space<gm>>, %o: memref<71680xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %ia = memref.subview %g[0] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>
    %oa = memref.subview %o[0] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>
    %a = memref.alloc() : memref<14336xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%ia : memref<14336xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>) outs(%a : memref<14336xf32, #hivm.address_space<ub>>)
    %ib = memref.subview %g[14336] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 14336>, #hivm.address_space<gm>>
    %ob = memref.subview %o[14336] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 14336>, #hivm.address_space<gm>>
    %b = memref.alloc() : memref<14336xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%ib : memref<14336xf32, strided<[1], offset: 14336>, #hivm.address_space<gm>>) outs(%b : memref<14336xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%a : memref<14336xf32, #hivm.address_space<ub>>) outs(%oa : memref<14336xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>)
    hivm.hir.store ins(%b : memref<14336xf32, #hivm.address_space<ub>>) outs(%ob : memref<14336xf32, strided<[1], offset: 14336>, #hivm.address_space<gm>>)
    %ic = memref.subview %g[28672] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 28672>, #hivm.address_space<gm>>
    %oc = memref.subview %o[28672] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 28672>, #hivm.address_space<gm>>
    %c = memref.alloc() : memref<14336xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%ic : memref<14336xf32, strided<[1], offset: 28672>, #hivm.address_space<gm>>) outs(%c : memref<14336xf32, #hivm.address_space<ub>>)
    %id = memref.subview %g[43008] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 43008>, #hivm.address_space<gm>>
    %od = memref.subview %o[43008] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 43008>, #hivm.address_space<gm>>
    %d = memref.alloc() : memref<14336xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%id : memref<14336xf32, strided<[1], offset: 43008>, #hivm.address_space<gm>>) outs(%d : memref<14336xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%c : memref<14336xf32, #hivm.address_space<ub>>) outs(%oc : memref<14336xf32, strided<[1], offset: 28672>, #hivm.address_space<gm>>)
    hivm.hir.store ins(%d : memref<14336xf32, #hivm.address_space<ub>>) outs(%od : memref<14336xf32, strided<[1], offset: 43008>, #hivm.address_space<gm>>)
    %ie = memref.subview %g[57344] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 57344>, #hivm.address_space<gm>>
    %oe = memref.subview %o[57344] [14336] [1] : memref<71680xf32, #hivm.address_space<gm>> to memref<14336xf32, strided<[1], offset: 57344>, #hivm.address_space<gm>>
    %e = memref.alloc() : memref<14336xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%ie : memref<14336xf32, strided<[1], offset: 57344>, #hivm.address_space<gm>>) outs(%e : memref<14336xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%e : memref<14336xf32, #hivm.address_space<ub>>) outs(%oe : memref<14336xf32, strided<[1], offset: 57344>, #hivm.address_space<gm>>)
    return
  }
}
