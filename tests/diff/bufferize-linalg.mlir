// DIFF-ARGS: -one-shot-bufferize -split-input-file
// Structured linalg ops bufferize in destination-passing style: outs are
// written in place when no later read conflicts; an out whose old value the
// body reads is copied into a fresh buffer, one it ignores is not.

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @generic_and_named(%arg0: memref<?xf32>, %out: memref<?xf32>, %sum: memref<?xf32>) {
  %rc = memref.reinterpret_cast %arg0 to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xf32> to memref<2x4xf32, strided<[4, 1]>>
  %alloc = memref.alloc() : memref<2x4xf32>
  memref.copy %rc, %alloc : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32>
  %t = bufferization.to_tensor %alloc restrict writable : memref<2x4xf32> to tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %sq = linalg.mul ins(%t, %t : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %ex = linalg.exp ins(%t : tensor<2x4xf32>) outs(%t : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = linalg.add ins(%sq, %t : tensor<2x4xf32>, tensor<2x4xf32>) outs(%sq : tensor<2x4xf32>) -> tensor<2x4xf32>
  %cst = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<2x4xf32>) outs(%z : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2xf32>
  %e3 = tensor.empty() : tensor<2x4xf32>
  %b = linalg.broadcast ins(%r : tensor<2xf32>) outs(%e3 : tensor<2x4xf32>) dimensions = [1]
  %fin = linalg.sub ins(%b, %ex : tensor<2x4xf32>, tensor<2x4xf32>) outs(%b : tensor<2x4xf32>) -> tensor<2x4xf32>
  %rc2 = memref.reinterpret_cast %out to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xf32> to memref<2x4xf32, strided<[4, 1]>>
  bufferization.materialize_in_destination %fin in writable %rc2 : (tensor<2x4xf32>, memref<2x4xf32, strided<[4, 1]>>) -> ()
  %rc3 = memref.reinterpret_cast %sum to offset: [0], sizes: [2], strides: [1] : memref<?xf32> to memref<2xf32, strided<[1]>>
  bufferization.materialize_in_destination %r in writable %rc3 : (tensor<2xf32>, memref<2xf32, strided<[1]>>) -> ()
  return
}

// -----

func.func @reads_of_outs(%o1: memref<4xf32>, %o2: memref<4x8xf32>, %w: memref<8x8xf32>, %o3: memref<8x4xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %ta = bufferization.to_tensor %a restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %i = memref.alloc() : memref<4xf32>
  %ti = bufferization.to_tensor %i restrict writable : memref<4xf32> to tensor<4xf32>
  %r = linalg.reduce ins(%ta : tensor<4x8xf32>) outs(%ti : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%r : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1]
  %ws = bufferization.to_tensor %w restrict : memref<8x8xf32> to tensor<8x8xf32>
  %m = linalg.matmul ins(%b, %ws : tensor<4x8xf32>, tensor<8x8xf32>) outs(%ta : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %tr = linalg.transpose ins(%m : tensor<4x8xf32>) outs(%e2 : tensor<8x4xf32>) permutation = [1, 0]
  %mp = linalg.map { math.absf } ins(%tr : tensor<8x4xf32>) outs(%tr : tensor<8x4xf32>)
  bufferization.materialize_in_destination %ti in writable %o1 : (tensor<4xf32>, memref<4xf32>) -> ()
  bufferization.materialize_in_destination %m in writable %o2 : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  bufferization.materialize_in_destination %mp in writable %o3 : (tensor<8x4xf32>, memref<8x4xf32>) -> ()
  return
}

// -----

// A loop carrying a tensor updated elementwise in place.
func.func @loop(%n: index, %o: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<16xf32>) {
    %d = linalg.add ins(%acc, %acc : tensor<16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %d : tensor<16xf32>
  }
  bufferization.materialize_in_destination %r in writable %o : (tensor<16xf32>, memref<16xf32>) -> ()
  return
}
