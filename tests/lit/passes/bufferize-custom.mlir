// Custom ops under one-shot-bufferize: outs mapped from an input by
// `inplace_outs` reuse its buffer; other outs are read by the op, so a
// conflicting out gets a fresh buffer holding a copy.
// RUN: hivm-opt %s -one-shot-bufferize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:.*]]: memref<16xf16>, %[[B:.*]]: memref<16xf16>)
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant
// CHECK-NEXT: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf16>
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f16) outs(%[[ACC]] : memref<16xf16>)
// CHECK-NEXT: hivm.hir.custom {{.*}} "first" ins(%[[A]] : memref<16xf16>) outs(%[[ACC]] : memref<16xf16>)
// CHECK-NEXT: hivm.hir.custom {{.*}} "second" ins(%[[ACC]], %[[B]] : memref<16xf16> {inplace_outs = 0 : i32}, memref<16xf16>) outs(%[[ACC]] : memref<16xf16>)
// CHECK-NEXT: memref.copy %[[ACC]], %[[A]]
// CHECK-NEXT: return
func.func @chain(%a: memref<16xf16>, %b: memref<16xf16>) {
  %zero = arith.constant 0.0 : f16
  %ta = bufferization.to_tensor %a restrict writable : memref<16xf16> to tensor<16xf16>
  %tb = bufferization.to_tensor %b restrict : memref<16xf16> to tensor<16xf16>
  %e = tensor.empty() : tensor<16xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<16xf16>) -> tensor<16xf16>
  %1 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "f"} "first"
      ins(%ta : tensor<16xf16>) outs(%acc : tensor<16xf16>) -> tensor<16xf16>
  // Reading %1 and writing it in place is allowed because of inplace_outs.
  %2 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "s"} "second"
      ins(%1, %tb : tensor<16xf16> {inplace_outs = 0 : i32}, tensor<16xf16>) outs(%1 : tensor<16xf16>) -> tensor<16xf16>
  bufferization.materialize_in_destination %2 in writable %a : (tensor<16xf16>, memref<16xf16>) -> ()
  return
}

// -----

// The input is read-only (no `writable`): the out must not reuse it.
// CHECK-LABEL: func.func @read_only
// CHECK: %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xi32>
// CHECK-NEXT: memref.copy %arg0, %[[NEW]]
// CHECK-NEXT: hivm.hir.custom {{.*}} ins(%arg1 : memref<8xi32>) outs(%[[NEW]] : memref<8xi32>)
// CHECK-NEXT: memref.copy %[[NEW]], %arg1
func.func @read_only(%m: memref<8xi32>, %n: memref<8xi32>) {
  %t = bufferization.to_tensor %m restrict : memref<8xi32> to tensor<8xi32>
  %u = bufferization.to_tensor %n restrict writable : memref<8xi32> to tensor<8xi32>
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "g"} "g"
      ins(%u : tensor<8xi32>) outs(%t : tensor<8xi32>) -> tensor<8xi32>
  bufferization.materialize_in_destination %r in writable %n : (tensor<8xi32>, memref<8xi32>) -> ()
  return
}

// -----

// An old value still read later: the write goes out of place, and the fresh
// buffer's dynamic size is taken from the old one.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[OLD:.*]] = memref.alloc(%arg1) {alignment = 64 : i64} : memref<?xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[DIM:.*]] = memref.dim %[[OLD]], %[[C0]] : memref<?xf32>
// CHECK-NEXT: %[[NEW:.*]] = memref.alloc(%[[DIM]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT: memref.copy %[[OLD]], %[[NEW]]
// CHECK-NEXT: hivm.hir.custom {{.*}} outs(%[[NEW]] : memref<?xf32>)
// CHECK-NEXT: memref.load %[[OLD]]
func.func @dynamic(%m: memref<?xf32>, %n: index) -> f32 {
  %i = arith.constant 0 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "h"} "h"
      ins(%m : memref<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %x = tensor.extract %e[%i] : tensor<?xf32>
  bufferization.materialize_in_destination %r in writable %m : (tensor<?xf32>, memref<?xf32>) -> ()
  return %x : f32
}

// -----

// A custom op writing a slice of a buffer that is read afterwards gets a
// fresh buffer; the result goes back through insert_slice.
// CHECK-LABEL: func.func @slice_out
// CHECK: %[[VIEW:.*]] = memref.subview %arg0[2] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 2>>
// CHECK-NEXT: %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: memref.copy %[[VIEW]], %[[NEW]]
// CHECK-NEXT: hivm.hir.custom {{.*}} ins(%arg1 : memref<4xf32>) outs(%[[NEW]] : memref<4xf32>)
// CHECK-NEXT: %[[DEST:.*]] = memref.subview %arg0[8] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 8>>
// CHECK-NEXT: memref.copy %[[NEW]], %[[DEST]]
func.func @slice_out(%m: memref<16xf32>, %n: memref<4xf32>) {
  %t = bufferization.to_tensor %m restrict writable : memref<16xf32> to tensor<16xf32>
  %u = bufferization.to_tensor %n restrict : memref<4xf32> to tensor<4xf32>
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "k"
      ins(%u : tensor<4xf32>) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.insert_slice %r into %t[8] [4] [1] : tensor<4xf32> into tensor<16xf32>
  bufferization.materialize_in_destination %w in writable %m : (tensor<16xf32>, memref<16xf32>) -> ()
  return
}

// -----

// A slice still read after its source is overwritten in place: the write
// gets the copy. (Upstream analyses bottom-up and copies the slice instead;
// both read the old values.)
// CHECK-LABEL: func.func @slice_read_late
// CHECK: %[[VIEW:.*]] = memref.subview %arg0[4] [4] [1]
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT: memref.copy %arg0, %[[COPY]]
// CHECK-NEXT: hivm.hir.custom {{.*}} outs(%[[COPY]] : memref<16xf32>)
// CHECK-NEXT: memref.load %[[VIEW]]
func.func @slice_read_late(%m: memref<16xf32>, %i: index) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<16xf32> to tensor<16xf32>
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "k"
      ins(%m : memref<16xf32>) outs(%t : tensor<16xf32>) -> tensor<16xf32>
  %x = tensor.extract %s[%i] : tensor<4xf32>
  bufferization.materialize_in_destination %r in writable %m : (tensor<16xf32>, memref<16xf32>) -> ()
  return %x : f32
}

// -----

// Branches yielding buffers of different layouts: both are cast to the fully
// dynamic layout. (Upstream also copies the fill out of place here, because
// the result may alias the read-only input; nothing writes the result, so
// the fill can stay in place.)
// CHECK-LABEL: func.func @types_differ
// CHECK: %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT: %[[R:.*]] = scf.if %arg1 -> (memref<8xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT: linalg.fill ins(%arg2 : f32) outs(%[[E]] : memref<8xf32>)
// CHECK-NEXT: %[[C1:.*]] = memref.cast %[[E]] : memref<8xf32> to memref<8xf32, strided<[?], offset: ?>>
// CHECK-NEXT: scf.yield %[[C1]]
// CHECK: %[[C2:.*]] = memref.cast %arg0 : memref<8xf32, strided<[2]>> to memref<8xf32, strided<[?], offset: ?>>
// CHECK-NEXT: scf.yield %[[C2]]
// CHECK: memref.load %[[R]]
func.func @types_differ(%m: memref<8xf32, strided<[2]>>, %c: i1, %f: f32) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<8xf32, strided<[2]>> to tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.if %c -> (tensor<8xf32>) {
    %a = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %t : tensor<8xf32>
  }
  %i = arith.constant 0 : index
  %x = tensor.extract %r[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// A tiled kernel: each iteration slices a tile of the loop-carried tensor,
// a custom op computes on it in place (its out aliases its first input by
// `inplace_outs`), and the tile is inserted back. Everything stays in the
// kernel argument's buffer: no allocation, no copy.
// CHECK-LABEL: func.func @tiled
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy %arg0
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %arg0) -> (memref<64xf32>) {
// CHECK-NEXT: %[[S:.*]] = memref.subview %[[A]][%[[I]]] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK-NEXT: hivm.hir.custom {{.*}} ins(%[[S]] : memref<16xf32, strided<[1], offset: ?>> {inplace_outs = 0 : i32}) outs(%[[S]] : memref<16xf32, strided<[1], offset: ?>>)
// CHECK-NEXT: %[[S2:.*]] = memref.subview %[[A]][%[[I]]] [16] [1]
// CHECK-NEXT: memref.copy %[[S]], %[[S2]]
// CHECK-NEXT: scf.yield %[[A]] : memref<64xf32>
// CHECK: memref.copy %[[R]], %arg0
func.func @tiled(%m: memref<64xf32>) {
  %t = bufferization.to_tensor %m restrict writable : memref<64xf32> to tensor<64xf32>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%a = %t) -> (tensor<64xf32>) {
    %s = tensor.extract_slice %a[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %y = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "relu_tile"} "relu_tile"
        ins(%s : tensor<16xf32> {inplace_outs = 0 : i32}) outs(%s : tensor<16xf32>) -> tensor<16xf32>
    %u = tensor.insert_slice %y into %a[%i] [16] [1] : tensor<16xf32> into tensor<64xf32>
    scf.yield %u : tensor<64xf32>
  }
  bufferization.materialize_in_destination %r in writable %m : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}

// -----

// An accumulator carried by the loop and updated by a custom op that reads
// its out: in place in the allocation made for it, which is read after the
// loop; the input tile is only read.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : memref<16xf32>)
// CHECK-NEXT: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[E]]) -> (memref<16xf32>) {
// CHECK-NEXT: %[[S:.*]] = memref.subview %arg0
// CHECK-NEXT: hivm.hir.custom {{.*}} ins(%[[S]] : {{.*}}) outs(%[[ACC]] : memref<16xf32>)
// CHECK-NEXT: scf.yield %[[ACC]] : memref<16xf32>
// CHECK: memref.load %[[R]]
func.func @accumulate(%m: memref<64xf32>, %k: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<64xf32> to tensor<64xf32>
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) {
    %s = tensor.extract_slice %t[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %n = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "acc_tile"} "acc_tile"
        ins(%s : tensor<16xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %n : tensor<16xf32>
  }
  %x = tensor.extract %r[%k] : tensor<16xf32>
  return %x : f32
}
