// A masked load's `other` is the one scalar its splat holds, also through the
// element casts a frontend puts after the splat (sitofp, truncf): folded into
// one constant of the loaded type when the scalar is a constant (i1's true
// converts to -1.0), else the casts applied to the scalar. The twin runs it:
// the lanes past n hold `other`.
// RUN: hivm-opt %s --triton-to-linalg | FileCheck %s
// RUN: hivm-opt %s --triton-to-linalg -o %t.mlir
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 8 range:1:1
// RUN: hivm-run %t.mlir --entry folded --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:8xf32 --arg 5 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=RUN1 --implicit-check-not=error
// RUN: hivm-run %t.mlir --entry applied --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:8xf32 --arg 6 --arg -3 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=RUN2 --implicit-check-not=error
module {
  tt.func public @folded(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {
    %c3 = arith.constant 3 : i32
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ns = tt.splat %n : i32 -> tensor<8xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<8xi32>
    %s = tt.splat %c3 : i32 -> tensor<8xi32>
    %d = arith.sitofp %s : tensor<8xi32> to tensor<8xf64>
    %other = arith.truncf %d : tensor<8xf64> to tensor<8xf32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xp, %m, %other : tensor<8x!tt.ptr<f32>>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %op = tt.addptr %os, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %op, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
// CHECK-LABEL: func.func @folded
// CHECK-DAG:     %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NOT:     arith.sitofp
// CHECK-NOT:     arith.truncf
// CHECK:         linalg.fill ins(%[[THREE]] : f32)
// RUN1: [1, 2, 3, 4, 5, 3, 3, 3]

  tt.func public @applied(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32, %fill: i32) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ns = tt.splat %n : i32 -> tensor<8xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<8xi32>
    %s = tt.splat %fill : i32 -> tensor<8xi32>
    %other = arith.sitofp %s : tensor<8xi32> to tensor<8xf32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xp, %m, %other : tensor<8x!tt.ptr<f32>>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %op = tt.addptr %os, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %op, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
// CHECK-LABEL: func.func @applied
// CHECK:         %[[F:.*]] = arith.sitofp %arg5 : i32 to f32
// CHECK:         linalg.fill ins(%[[F]] : f32)
// RUN2: [1, 2, 3, 4, 5, 6, -3, -3]

  tt.func public @bool_other(%x: !tt.ptr<f16>, %n: i32) {
    %t = arith.constant dense<true> : tensor<4xi1>
    %other = arith.sitofp %t : tensor<4xi1> to tensor<4xf16>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %ns = tt.splat %n : i32 -> tensor<4xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<4xi32>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<4x!tt.ptr<f16>>
    %xp = tt.addptr %xs, %r : tensor<4x!tt.ptr<f16>>, tensor<4xi32>
    %v = tt.load %xp, %m, %other : tensor<4x!tt.ptr<f16>>
    tt.store %xp, %v : tensor<4x!tt.ptr<f16>>
    tt.return
  }
// CHECK-LABEL: func.func @bool_other
// CHECK:         %[[M1:.*]] = arith.constant -1.000000e+00 : f16
// CHECK:         linalg.fill ins(%[[M1]] : f16)
}
