// Masked 1-D accesses over a grid: the mask becomes a box (subviews), `other`
// a fill guarded by whether the box is partial; elementwise ops stay named
// (named-ops=true) or become linalg.generic.
// RUN: hivm-opt %s --split-input-file --triton-to-linalg='named-ops=true' | FileCheck %s
// RUN: hivm-opt %s --split-input-file --triton-to-linalg | FileCheck %s --check-prefix=GENERIC
module {
  tt.func public @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %s = tt.splat %start : i32 -> tensor<1024xi32>
    %offs = arith.addi %s, %r : tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %a = tt.load %xp, %mask, %zero : tensor<1024x!tt.ptr<f32>>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %b = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
    %sum = arith.addf %a, %b : tensor<1024xf32>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %arg2: memref<?xf32> {tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.tensor_kind = 1 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32)
// CHECK-SAME:    global_kernel = ""
// CHECK:         %[[START:.*]] = arith.muli %arg9, %c1024_i32 : i32
// CHECK:         %[[IDX:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK:         %[[X:.*]] = memref.reinterpret_cast %arg2 to offset: [%[[IDX]]], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<1024xf32>
// CHECK:         %[[END:.*]] = arith.addi %[[IDX]], %c1024 : index
// CHECK:         %[[N:.*]] = arith.index_cast %arg5 : i32 to index
// CHECK:         %[[HI:.*]] = arith.maxsi %[[IDX]], %[[N]] : index
// CHECK:         %[[LIM:.*]] = arith.minsi %[[END]], %[[HI]] : index
// CHECK:         %[[LEN:.*]] = arith.subi %[[LIM]], %[[IDX]] : index
// CHECK:         %[[PARTIAL:.*]] = arith.cmpi slt, %[[LEN]], %c1024 : index
// CHECK:         scf.if %[[PARTIAL]] {
// CHECK-NEXT:      linalg.fill ins(%cst : f32) outs(%[[BUF]] : memref<1024xf32>)
// CHECK-NEXT:    } {hivm.unlikely_condition}
// CHECK:         %[[SRC:.*]] = memref.subview %[[X]][0] [%[[LEN]]] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK:         %[[DST:.*]] = memref.subview %[[BUF]][0] [%[[LEN]]] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
// CHECK:         memref.copy %[[SRC]], %[[DST]]
// CHECK:         %[[A:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK:         %[[B:.*]] = bufferization.to_tensor
// CHECK:         %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : tensor<1024xf32>
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[SUM]][0] [%[[LEN]]] [1] : tensor<1024xf32> to tensor<?xf32>
// CHECK:         %[[OUT:.*]] = memref.subview
// CHECK:         bufferization.materialize_in_destination %[[SLICE]] in writable %[[OUT]]
// GENERIC-LABEL: func.func @add(
// GENERIC:       linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%[[A:.*]], %[[B:.*]] : tensor<1024xf32>, tensor<1024xf32>) outs(%[[A]] : tensor<1024xf32>) {
// GENERIC-NEXT:  ^bb0(%in: f32, %in_{{.*}}: f32, %out: f32):
// GENERIC-NEXT:    %[[S:.*]] = arith.addf %in, %in_{{.*}} : f32
// GENERIC-NEXT:    linalg.yield %[[S]] : f32

// -----

// A high mask (sge) moves the box's start.
module {
  tt.func @high(%x: !tt.ptr<f16>, %o: !tt.ptr<f16>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ns = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi sge, %r, %ns : tensor<128xi32>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
    %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    %a = tt.load %xp, %mask : tensor<128x!tt.ptr<f16>>
    %os = tt.splat %o : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
    %op = tt.addptr %os, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    tt.store %op, %a, %mask : tensor<128x!tt.ptr<f16>>
    tt.return
  }
}
// CHECK-LABEL: func.func @high(
// CHECK:         %[[N:.*]] = arith.index_cast %arg4 : i32 to index
// CHECK:         %[[LO:.*]] = arith.maxsi %[[N]], %c0 : index
// CHECK:         %[[S:.*]] = arith.minsi %[[LO]], %c128 : index
// CHECK:         %[[LEN:.*]] = arith.subi %c128, %[[S]] : index
// CHECK:         %[[SV1:.*]] = memref.subview %reinterpret_cast{{\[}}%[[S]]{{\]}} [%[[LEN]]] [1] : memref<128xf16, strided<[1]>> to memref<?xf16, strided<[1], offset: ?>>
// CHECK:         %[[SV2:.*]] = memref.subview %alloc{{\[}}%[[S]]{{\]}} [%[[LEN]]] [1] : memref<128xf16> to memref<?xf16, strided<[1], offset: ?>>
