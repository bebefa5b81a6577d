// scf.index_switch yielding several values (a bare type list after `->`),
// MLIR's index dialect constants, arithmetic and casts, affine vector
// loads and stores, and the test dialect's destination-style op.
func.func @select(%key: index, %a: f32, %b: i64) -> (f32, i64) {
  %r:2 = scf.index_switch %key -> f32, i64
  case 0 {
    scf.yield %a, %b : f32, i64
  }
  case 7 {
    %c = arith.constant 7 : i64
    scf.yield %a, %c : f32, i64
  }
  default {
    scf.yield %a, %b : f32, i64
  }
  %s = scf.index_switch %key {hint} -> f32
  default {
    scf.yield %a : f32
  }
  return %r#0, %r#1 : f32, i64
}

func.func @index_ops(%i: index, %j: index, %w: i32) -> index {
  %c = index.constant 12
  %m = index.constant {why = "neg"} -5
  %t = index.bool.constant false
  %0 = index.add %i, %c
  %1 = index.sub %0, %m
  %2 = index.mul %1, %j {tag}
  %3 = index.ceildivs %2, %c
  %4 = index.floordivs %3, %j
  %5 = index.remu %4, %c
  %6 = index.maxs %5, %i
  %7 = index.minu %6, %j
  %8 = index.shl %7, %c
  %9 = index.xor %8, %i
  %10 = index.casts %9 : index to i64
  %11 = index.castu %w : i32 to index
  return %11 : index
}

func.func @vectors(%m: memref<?x16x4xf32>, %i: index, %j: index, %n: index) -> vector<4xf32> {
  %v = affine.vector_load %m[%i, %j + 2, symbol(%n)] : memref<?x16x4xf32>, vector<4xf32>
  affine.vector_store %v, %m[%i * 2, 0, %j] {nontemporal = true} : memref<?x16x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

func.func @destination(%in: tensor<2x3xf32>, %out: tensor<2x3xf32>, %buf: memref<4xf32>, %k: index) -> index {
  %r:2 = test.destination_style_op ins(%in : tensor<2x3xf32>) outs(%out : tensor<2x3xf32>) -> tensor<2x3xf32>, index
  test.destination_style_op {mode = 1 : i32} outs(%buf : memref<4xf32>) (%k : index)
  return %r#1 : index
}
