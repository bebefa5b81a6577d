// hivm-plan-memory keeps buffers apart wherever sharing a place could lose
// data: a loop-carried buffer allocated in the body and written before the
// carried value is read is an error; a ping-pong pair, a buffer also seen
// through an scf.if result, and a buffer first written by a memref.copy
// are never merged.
// RUN: not hivm-opt %s -split-input-file -hivm-plan-memory 2>&1 | FileCheck %s

// CHECK: [[@LINE+11]]:7: error: hivm-plan-memory: this op writes the buffer the loop carries to its next iteration before the carried value is last read; with one address per alloc the carried value is lost
// CHECK: [[@LINE+11]]:7: note: the carried value is read here
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @running_sum(%src: memref<64xf32, #hivm.address_space<gm>>, %dst: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %init = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%init : memref<64xf32, #hivm.address_space<ub>>)
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (memref<64xf32, #hivm.address_space<ub>>) {
      %n = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
      hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%n : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%acc, %n : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%n : memref<64xf32, #hivm.address_space<ub>>)
      scf.yield %n : memref<64xf32, #hivm.address_space<ub>>
    }
    hivm.hir.store ins(%r : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// CHECK-LABEL: func.func @ping_pong(
// CHECK: hivm.hir.pointer_cast(%c0_i64)
// CHECK-NEXT: hivm.hir.pointer_cast(%c256_i64)

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @ping_pong(%src: memref<64xf32, #hivm.address_space<gm>>, %dst: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
    %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a, %y = %b) -> (memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) {
      hivm.hir.vadd ins(%x, %y : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<ub>>)
      scf.yield %y, %x : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>
    }
    hivm.hir.store ins(%r#0 : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// CHECK-LABEL: func.func @if_alias(
// CHECK: hivm.hir.pointer_cast(%c0_i64)
// CHECK-NEXT: hivm.hir.pointer_cast(%c256_i64)
// CHECK-NEXT: hivm.hir.pointer_cast(%c256_i64)

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @if_alias(%src: memref<64xf32, #hivm.address_space<gm>>, %dst: memref<64xf32, #hivm.address_space<gm>>, %c: i1) {
    %k = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %g = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %o = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%k : memref<64xf32, #hivm.address_space<ub>>)
    %s = scf.if %c -> (memref<64xf32, #hivm.address_space<ub>>) {
      scf.yield %k : memref<64xf32, #hivm.address_space<ub>>
    } else {
      scf.yield %k : memref<64xf32, #hivm.address_space<ub>>
    }
    hivm.hir.vadd ins(%k, %k : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%g : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%s, %g : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%o : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%o : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// CHECK-LABEL: func.func @copy_writes(
// CHECK: hivm.hir.pointer_cast(%c0_i64)
// CHECK-NEXT: hivm.hir.pointer_cast(%c256_i64)

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @copy_writes(%src: memref<64xf32, #hivm.address_space<gm>>, %dst: memref<64xf32, #hivm.address_space<gm>>, %x: memref<64xf32, #hivm.address_space<ub>>) {
    %k = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %g = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%k : memref<64xf32, #hivm.address_space<ub>>)
    memref.copy %x, %g : memref<64xf32, #hivm.address_space<ub>> to memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%k, %g : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%g : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%g : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}
