// linalg.reduce with two inputs and two inits (argmax as triton-to-linalg
// writes it: values and make_range indices reduced together; the first of
// equal maxima wins).
// RUN: python3 %root/scripts/npy.py %t.npy f32 8 3 9 1 9 -5 -2 -7 -3
// RUN: hivm-run %s --arg %t.npy --arg zeros:2xi32 --arg zeros:2xf32 --print 1 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: [1, 1]
// CHECK-NEXT: [9, -2]

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @argmax(%x: memref<?xf32>, %o: memref<?xi32>, %ov: memref<?xf32>) {
  %rc = memref.reinterpret_cast %x to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xf32> to memref<2x4xf32, strided<[4, 1]>>
  %alloc = memref.alloc() : memref<2x4xf32>
  memref.copy %rc, %alloc : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32>
  %t = bufferization.to_tensor %alloc restrict writable : memref<2x4xf32> to tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xi32>
  %idx = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x4xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<2x4xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %m1 = arith.constant -1 : i32
  %ev = tensor.empty() : tensor<2xf32>
  %ei = tensor.empty() : tensor<2xi32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2xf32>) -> tensor<2xf32>
  %fi = linalg.fill ins(%m1 : i32) outs(%ei : tensor<2xi32>) -> tensor<2xi32>
  %r:2 = linalg.reduce ins(%t, %idx : tensor<2x4xf32>, tensor<2x4xi32>) outs(%fv, %fi : tensor<2xf32>, tensor<2xi32>) dimensions = [1]
    (%v: f32, %i: i32, %bv: f32, %bi: i32) {
      %gt = arith.cmpf ogt, %v, %bv : f32
      %nv = arith.select %gt, %v, %bv : f32
      %ni = arith.select %gt, %i, %bi : i32
      linalg.yield %nv, %ni : f32, i32
    }
  %rco = memref.reinterpret_cast %o to offset: [0], sizes: [2], strides: [1] : memref<?xi32> to memref<2xi32, strided<[1]>>
  bufferization.materialize_in_destination %r#1 in writable %rco : (tensor<2xi32>, memref<2xi32, strided<[1]>>) -> ()
  %rcv = memref.reinterpret_cast %ov to offset: [0], sizes: [2], strides: [1] : memref<?xf32> to memref<2xf32, strided<[1]>>
  bufferization.materialize_in_destination %r#0 in writable %rcv : (tensor<2xf32>, memref<2xf32, strided<[1]>>) -> ()
  return
}
