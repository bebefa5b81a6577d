// hivm-enable-multi-buffer: the two copies go to the entry with their marks,
// and each iteration picks one by its count (the loop's counter, made here
// when the sync solver has not made one); constants end up hoisted and
// merged as MLIR's greedy driver leaves them.
// RUN: hivm-opt %s -hivm-enable-multi-buffer | FileCheck %s
// RUN: hivm-opt %s -hivm-enable-multi-buffer -hivm-lower-multi-buffer-counter | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @split(
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.constant 4 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[A0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[A1:.*]] = arith.constant 256 : i64
// CHECK-NEXT: %[[B0:.*]] = hivm.hir.pointer_cast(%[[A0]]) : memref<64xf32, #hivm.address_space<ub>>
// CHECK-NEXT: annotation.mark %[[B0]] {hivm.multi_buffer = 2 : i32}
// CHECK-NEXT: %[[B1:.*]] = hivm.hir.pointer_cast(%[[A1]]) : memref<64xf32, #hivm.address_space<ub>>
// CHECK-NEXT: annotation.mark %[[B1]] {hivm.multi_buffer = 2 : i32}
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[N:.*]] = hivm.hir.multi_buffer_counter -> i64
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[N]], %[[TWO]] : i64
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[P:.*]] = arith.cmpi eq, %[[J]], %[[ONE]] : i64
// CHECK-NEXT: %[[B:.*]] = arith.select %[[P]], %[[B1]], %[[B0]] : memref<64xf32, #hivm.address_space<ub>>
// CHECK-NEXT: hivm.hir.load {{.*}} outs(%[[B]] :
// CHECK-NEXT: hivm.hir.store ins(%[[B]] :
// LOWER: %[[CELL:.*]] = memref.alloca() : memref<1xi64>
// LOWER: scf.for
// LOWER: %[[N:.*]] = memref.load %[[CELL]]
// LOWER-NEXT: arith.remui %[[N]]
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @split(%gm: memref<64xf32, #hivm.address_space<gm>>) {
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %buf = hivm.hir.pointer_cast(%c0_i64, %c256_i64) : memref<64xf32, #hivm.address_space<ub>>
      annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<64xf32, #hivm.address_space<ub>>
      hivm.hir.load ins(%gm : memref<64xf32, #hivm.address_space<gm>>) outs(%buf : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%buf : memref<64xf32, #hivm.address_space<ub>>) outs(%gm : memref<64xf32, #hivm.address_space<gm>>)
    }
    return
  }
}
