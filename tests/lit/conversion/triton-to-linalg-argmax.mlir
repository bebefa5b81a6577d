// A value-and-index reduce whose combiner selects (argmax/argmin): every
// element is reduced (the whole operands are the ins) onto a copy of the first
// slice, and upstream's argmin/argmax shapes get reduce_mode and
// tie_break_left. A combiner comparing the other way round gets no mode. The
// twin runs them: the leftmost (resp. rightmost) index of the best value.
// RUN: hivm-opt %s --triton-to-linalg | FileCheck %s
// RUN: hivm-opt %s --triton-to-linalg -o %t.mlir
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 8 3 9 1 9 -4 1 9 2
// RUN: hivm-run %t.mlir --entry argmax_left --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:1xi32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=LEFT --implicit-check-not=error
// RUN: hivm-run %t.mlir --entry argmin_right --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg zeros:1xi32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=RIGHT --implicit-check-not=error
module {
  tt.func public @argmax_left(%x: !tt.ptr<f32>, %o: !tt.ptr<i32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
    %m:2 = "tt.reduce"(%v, %r) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %take = arith.ori %gt, %tie : i1
      %bv = arith.select %take, %a, %b : f32
      %bx = arith.select %take, %ai, %bi : i32
      tt.reduce.return %bv, %bx : f32, i32
    }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
    tt.store %o, %m#1 : !tt.ptr<i32>
    tt.return
  }
  tt.func public @argmin_right(%x: !tt.ptr<f32>, %o: !tt.ptr<i32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
    %m:2 = "tt.reduce"(%v, %r) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %gt = arith.cmpi sgt, %ai, %bi : i32
      %tie = arith.andi %eq, %gt : i1
      %take = arith.ori %lt, %tie : i1
      %bv = arith.select %take, %a, %b : f32
      %bx = arith.select %take, %ai, %bi : i32
      tt.reduce.return %bv, %bx : f32, i32
    }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
    tt.store %o, %m#1 : !tt.ptr<i32>
    tt.return
  }
  tt.func public @reversed(%x: !tt.ptr<f32>, %o: !tt.ptr<i32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
    %m:2 = "tt.reduce"(%v, %r) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %b, %a : f32
      %bv = arith.select %gt, %a, %b : f32
      %bx = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %bv, %bx : f32, i32
    }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
    tt.store %o, %m#1 : !tt.ptr<i32>
    tt.return
  }
}
// CHECK-LABEL: func.func @argmax_left
// CHECK:         %[[V:.*]] = bufferization.to_tensor
// CHECK:         %[[V0:.*]] = tensor.extract_slice %[[V]][0] [1] [1]
// CHECK:         %[[ACC:.*]] = tensor.collapse_shape %[[V0]] []
// CHECK:         %[[I0:.*]] = tensor.extract_slice %[[R:.*]][0] [1] [1]
// CHECK:         %[[ACCI:.*]] = tensor.collapse_shape %[[I0]] []
// CHECK:         linalg.reduce ins(%[[V]], %[[R]] : tensor<8xf32>, tensor<8xi32>) outs(%[[ACC]], %[[ACCI]] : tensor<f32>, tensor<i32>) dimensions = [0]  {reduce_mode = "max_with_index", tie_break_left = "true"}
// CHECK-LABEL: func.func @argmin_right
// CHECK:         linalg.reduce ins({{.*}} : tensor<8xf32>, tensor<8xi32>) outs({{.*}} : tensor<f32>, tensor<i32>) dimensions = [0]  {reduce_mode = "min_with_index", tie_break_left = "false"}
// CHECK-LABEL: func.func @reversed
// CHECK-NOT:     reduce_mode
// CHECK:         linalg.reduce ins({{.*}} : tensor<8xf32>, tensor<8xi32>) outs({{.*}} : tensor<f32>, tensor<i32>) dimensions = [0]
// CHECK-NOT:     reduce_mode
// LEFT: [1]
// RIGHT: [4]
