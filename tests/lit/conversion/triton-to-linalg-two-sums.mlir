// Two sums over the same axis start from equal zero fills, which the
// clean-up's CSE merges into one accumulator (as upstream's output has it);
// bufferization then gives each reduce its own buffer, so the twin's sums
// are both right.
// RUN: hivm-opt %s --triton-to-linalg | FileCheck %s
// RUN: hivm-opt %s --triton-to-linalg -o %t.mlir
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 8 range:1:1
// RUN: hivm-run %t.mlir --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:4xf32 --arg zeros:4xf32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 --print 4 2>&1 | FileCheck %s --check-prefix=SUMS --implicit-check-not=error
module {
  tt.func public @two_sums(%x: !tt.ptr<f32>, %o1: !tt.ptr<f32>, %o2: !tt.ptr<f32>) {
    %c4 = arith.constant dense<4> : tensor<2x1xi32>
    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %rows = tt.expand_dims %r2 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %rs = arith.muli %rows, %c4 : tensor<2x1xi32>
    %rb = tt.broadcast %rs : tensor<2x1xi32> -> tensor<2x4xi32>
    %cols = tt.expand_dims %r4 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %cb = tt.broadcast %cols : tensor<1x4xi32> -> tensor<2x4xi32>
    %off = arith.addi %rb, %cb : tensor<2x4xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %off : tensor<2x4x!tt.ptr<f32>>, tensor<2x4xi32>
    %v = tt.load %xp : tensor<2x4x!tt.ptr<f32>>
    %w = arith.mulf %v, %v : tensor<2x4xf32>
    %s1 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<2x4xf32>) -> tensor<4xf32>
    %s2 = "tt.reduce"(%w) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<2x4xf32>) -> tensor<4xf32>
    %p1s = tt.splat %o1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %p1 = tt.addptr %p1s, %r4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %p1, %s1 : tensor<4x!tt.ptr<f32>>
    %p2s = tt.splat %o2 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %p2 = tt.addptr %p2s, %r4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %p2, %s2 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL: func.func @two_sums
// CHECK:         %[[Z:.*]] = linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.reduce ins(%{{.*}} : tensor<2x4xf32>) outs(%[[Z]] : tensor<4xf32>)
// CHECK:         linalg.reduce ins(%{{.*}} : tensor<2x4xf32>) outs(%[[Z]] : tensor<4xf32>)
// SUMS: [6, 8, 10, 12]
// SUMS: [26, 40, 58, 80]
