// linalg.generic and the named structured ops, as mlir-opt prints them: the
// trait dictionary with iterator types as strings, 'attrs =' for the rest, the
// short form of single-op reductions, implicit transpose/broadcast bodies and
// the trailing space after their dimension lists.
func.func @g(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %1 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0]
  %2 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.mulf %x, %x : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  return %1, %2, %3 : tensor<8x4xf32>, tensor<4xf32>, tensor<4x8xf32>
}

func.func @h(%a: tensor<4x8xf32>, %c: tensor<4xf32>, %m: memref<4x8xf32>, %mc: memref<4xf32>, %v: tensor<8xf32>, %i: tensor<4x8xi32>, %ci: tensor<4xi32>) -> (tensor<4xf32>, tensor<4x8xf32>, tensor<4xi32>) {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1]
  %1 = linalg.reduce { arith.maxnumf {fastmath = #arith.fastmath<fast>} } ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) dimensions = [1] {tag = 1 : i32}
  linalg.reduce { arith.addf } ins(%m : memref<4x8xf32>) outs(%mc : memref<4xf32>) dimensions = [1]
  %2 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%a : tensor<4x8xf32>) dimensions = [0]
  %3 = linalg.reduce { arith.addi } ins(%i : tensor<4x8xi32>) outs(%ci : tensor<4xi32>) dimensions = [1]
  %4:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"], doc = "x"} ins(%a : tensor<4x8xf32>) outs(%c, %a : tensor<4xf32>, tensor<4x8xf32>) attrs = {hivm.note, z = 2 : i64} {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e, %x : f32, f32
  } -> (tensor<4xf32>, tensor<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%mc : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  }
  %5:2 = linalg.reduce ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c, %c : tensor<4xf32>, tensor<4xf32>) dimensions = [1]
    (%in: f32, %in2: f32, %init: f32, %init2: f32) {
      %s = arith.addf %in, %init : f32
      %t = arith.addf %in2, %init2 : f32
      linalg.yield %s, %t : f32, f32
    }
  return %1, %2, %3 : tensor<4xf32>, tensor<4x8xf32>, tensor<4xi32>
}
