// The HIVM half of bishengir-compile on an add kernel as convert-hfusion-to-hivm
// leaves it (copies from GM into buffers, a vadd on tensors, a materialize
// into GM): program ids from the block index, loads and the store, the
// bufferization passes, memory scopes, addresses and flags; run on the twin
// over two blocks it adds the halves.
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 64 range:0:1
// RUN: python3 %root/scripts/npy.py %t.y.npy f32 64 range:1000:0
// RUN: hivm-opt %s -triton-global-kernel-args-to-hivm-op -convert-to-hivm-op -hivm-expose-memref-write-to-tensor -hivm-tensor-copy-insertion -one-shot-bufferize -convert-to-hivm-op -hivm-infer-mem-scope -hivm-plan-memory -hivm-graph-sync-solver -o %t.mlir
// RUN: hivm-opt %t.mlir | FileCheck %s --check-prefix=IR
// RUN: hivm-run %t.mlir --blocks 2 --arg %t.x.npy --arg %t.y.npy --arg zeros:64xf32 --arg 64 --arg 2 --arg 1 --arg 1 --print 2 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=error
// IR: hivm.hir.get_block_idx
// IR-COUNT-2: hivm.hir.load ins
// IR: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>
// IR: hivm.hir.vadd ins({{.*}}#hivm.address_space<ub>>
// IR: hivm.hir.store ins({{.*}}#hivm.address_space<ub>>) outs({{.*}}#hivm.address_space<gm>>)
// IR-NOT: to_be_replaced
// IR-NOT: memref.alloc
// OUT: [1000, 1001, 1002,
// OUT-SAME: 1061, 1062, 1063]
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @add(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>, %n: i32, %gx: i32, %gy: i32, %gz: i32, %px: i32, %py: i32, %pz: i32)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c32 = arith.constant 32 : i32
    %start = arith.muli %px, %c32 : i32
    %o = arith.index_cast %start : i32 to index
    %vx = memref.reinterpret_cast %x to offset: [%o], sizes: [32], strides: [1] : memref<?xf32> to memref<32xf32, strided<[1], offset: ?>>
    %bx = memref.alloc() : memref<32xf32>
    memref.copy %vx, %bx : memref<32xf32, strided<[1], offset: ?>> to memref<32xf32>
    %tx = bufferization.to_tensor %bx restrict writable : memref<32xf32>
    %vy = memref.reinterpret_cast %y to offset: [%o], sizes: [32], strides: [1] : memref<?xf32> to memref<32xf32, strided<[1], offset: ?>>
    %by = memref.alloc() : memref<32xf32>
    memref.copy %vy, %by : memref<32xf32, strided<[1], offset: ?>> to memref<32xf32>
    %ty = bufferization.to_tensor %by restrict writable : memref<32xf32>
    %e = tensor.empty() : tensor<32xf32>
    %sum = hivm.hir.vadd ins(%tx, %ty : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
    %vo = memref.reinterpret_cast %out to offset: [%o], sizes: [32], strides: [1] : memref<?xf32> to memref<32xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %sum in writable %vo : (tensor<32xf32>, memref<32xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}
