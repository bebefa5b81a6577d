// hivm-plan-memory plans callers before callees and starts a callee's
// buffers where its callers' end (upstream plans each function from 0);
// buffers a function addresses with its own pointer_casts keep their
// bytes (errors: plan-memory-errors.mlir).
// RUN: hivm-opt %s -split-input-file -hivm-plan-memory 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @leaf(
// CHECK: hivm.hir.pointer_cast(%c288_i64)
// CHECK-LABEL: func.func @mid(
// CHECK: hivm.hir.pointer_cast(%c256_i64)
// CHECK-LABEL: func.func @top(
// CHECK: hivm.hir.pointer_cast(%c0_i64)
// CHECK: call @mid
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @leaf(%src: memref<8xf32, #hivm.address_space<gm>>) {
    %t = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<8xf32, #hivm.address_space<gm>>) outs(%t : memref<8xf32, #hivm.address_space<ub>>)
    return
  }
  func.func @mid(%src: memref<8xf32, #hivm.address_space<gm>>) {
    %t = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<8xf32, #hivm.address_space<gm>>) outs(%t : memref<8xf32, #hivm.address_space<ub>>)
    func.call @leaf(%src) : (memref<8xf32, #hivm.address_space<gm>>) -> ()
    return
  }
  func.func @top(%src: memref<64xf32, #hivm.address_space<gm>>, %s8: memref<8xf32, #hivm.address_space<gm>>) {
    %t = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%t : memref<64xf32, #hivm.address_space<ub>>)
    func.call @mid(%s8) : (memref<8xf32, #hivm.address_space<gm>>) -> ()
    func.call @leaf(%s8) : (memref<8xf32, #hivm.address_space<gm>>) -> ()
    return
  }
}

// -----

// CHECK-LABEL: func.func @beside_cast(
// CHECK: hivm.hir.pointer_cast(%c0_i64) : memref<40xf32
// CHECK: hivm.hir.pointer_cast(%c160_i64) : memref<8xf32
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @beside_cast(%src: memref<8xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : i64
    %p = hivm.hir.pointer_cast(%c0) : memref<40xf32, #hivm.address_space<ub>>
    %t = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<8xf32, #hivm.address_space<gm>>) outs(%t : memref<8xf32, #hivm.address_space<ub>>)
    return
  }
}
