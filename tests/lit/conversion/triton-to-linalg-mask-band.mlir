// A mask that is a band (r >= lo and r < hi) is one box: its start is the
// clamped lo and its end min(end of the lo box, clamped hi). The lo box's end
// is its start plus its size, i.e. the block's end: the sum folds away (as
// arith's canonicalization folds x + (y - x)) instead of being rebuilt from
// the size. The twin copies exactly lanes lo..hi.
// RUN: hivm-opt %s --triton-to-linalg | FileCheck %s
// RUN: hivm-opt %s --triton-to-linalg -o %t.mlir
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 16 range:1:1
// RUN: hivm-run %t.mlir --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:16xf32 --arg 3 --arg 9 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=BAND --implicit-check-not=error
// RUN: hivm-run %t.mlir --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:16xf32 --arg -4 --arg 30 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=ALL --implicit-check-not=error
module {
  tt.func public @band(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %lo: i32, %hi: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %los = tt.splat %lo : i32 -> tensor<16xi32>
    %his = tt.splat %hi : i32 -> tensor<16xi32>
    %a = arith.cmpi sge, %r, %los : tensor<16xi32>
    %b = arith.cmpi slt, %r, %his : tensor<16xi32>
    %m = arith.andi %a, %b : tensor<16xi1>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %xp, %m : tensor<16x!tt.ptr<f32>>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %op = tt.addptr %os, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %op, %v, %m : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL: func.func @band
// CHECK:         %[[LO:.*]] = arith.index_cast %arg4 : i32 to index
// CHECK-NEXT:    %[[LO1:.*]] = arith.maxsi %[[LO]], %c0 : index
// CHECK-NEXT:    %[[START:.*]] = arith.minsi %[[LO1]], %c16 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.index_cast %arg5 : i32 to index
// CHECK-NEXT:    %[[HI1:.*]] = arith.maxsi %[[HI]], %c0 : index
// CHECK-NEXT:    %[[END:.*]] = arith.minsi %[[HI1]], %c16 : index
// CHECK-NEXT:    %[[S:.*]] = arith.maxsi %[[START]], %c0 : index
// CHECK-NEXT:    %[[E:.*]] = arith.minsi %[[END]], %c16 : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.subi %[[E]], %[[S]] : index
// CHECK-NEXT:    memref.subview %reinterpret_cast{{\[}}%[[S]]] {{\[}}%[[SIZE]]] [1]
// CHECK-NOT:     arith.addi
// BAND: [0, 0, 0, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0]
// ALL: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
