// RUN: hivm-opt %s --split-input-file --convert-to-hivm-op -allow-unregistered-dialect | FileCheck %s

// A masked load as triton-to-linalg leaves it: the buffer is filled with the
// `other` value, then part of it is copied from a parameter. The fill becomes
// the load's padding and initialisation, and goes; the fp16 offset 21 leaves
// 21 mod 16 = 5 elements of left padding. The result is stored back through a
// view of the other parameter.
// CHECK-LABEL: func.func @masked_row(
// CHECK-DAG: %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[NEG:.*]] = arith.constant -1.000000e+00 : f16
// CHECK-NOT: hivm.hir.vbrc
// CHECK: hivm.hir.load ins(%{{.*}} : memref<?xf16, strided<[1], offset: ?>>) outs(%{{.*}} : memref<?xf16, strided<[1], offset: 21>>) pad_mode = <PadValue> pad_value = %[[NEG]] : f16 left_padding_num = %[[FIVE]] : index init_out_buffer = true eviction_policy = <EvictFirst>
// CHECK: %[[T:.*]] = bufferization.to_tensor
// CHECK: hivm.hir.store ins(%[[T]] : tensor<64xf16>) outs(%{{.*}} : memref<64xf16, strided<[1], offset: ?>>)
func.func @masked_row(%in: memref<?xf16>, %out: memref<?xf16>, %off: index, %n: index) {
  %other = arith.constant -1.0 : f16
  %src = memref.reinterpret_cast %in to offset: [%off], sizes: [%n], strides: [1] : memref<?xf16> to memref<?xf16, strided<[1], offset: ?>>
  %buf = memref.alloc() : memref<64xf16>
  hivm.hir.vbrc ins(%other : f16) outs(%buf : memref<64xf16>)
  %part = memref.subview %buf[21] [%n] [1] : memref<64xf16> to memref<?xf16, strided<[1], offset: 21>>
  memref.copy %src, %part : memref<?xf16, strided<[1], offset: ?>> to memref<?xf16, strided<[1], offset: 21>>
  %t = bufferization.to_tensor %buf restrict writable : memref<64xf16>
  %dst = memref.reinterpret_cast %out to offset: [%off], sizes: [64], strides: [1] : memref<?xf16> to memref<64xf16, strided<[1], offset: ?>>
  bufferization.materialize_in_destination %t in writable %dst : (tensor<64xf16>, memref<64xf16, strided<[1], offset: ?>>) -> ()
  return
}

// -----

// The 950 form: the pad value is a `pad_const` key on a mark that also says
// something else (the key goes, the mark stays), the cache hint is its own
// mark (consumed). A dynamic offset gives `remui` by 8 f32 elements.
// CHECK-LABEL: func.func @marked_pad(
// CHECK: annotation.mark %{{.*}} {keep_me} : memref<32xf32>
// CHECK-NOT: evict_last
// CHECK: %[[R:.*]] = arith.remui %arg2, %c8 : index
// CHECK: hivm.hir.load ins(%{{.*}}) outs(%{{.*}}) pad_mode = <PadValue> pad_value = %arg3 : f32 left_padding_num = %[[R]] : index eviction_policy = <EvictLast>
func.func @marked_pad(%in: memref<32xf32>, %n: index, %off: index, %pad: f32) {
  %buf = memref.alloc() : memref<32xf32>
  annotation.mark %buf {keep_me} keys = ["pad_const"] values = [%pad : f32] : memref<32xf32>
  annotation.mark %buf {eviction_policy = "evict_last"} : memref<32xf32>
  %s = memref.subview %in[%off] [%n] [1] : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  %d = memref.subview %buf[%off] [%n] [1] : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  memref.copy %s, %d : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  return
}

// -----

// A scalar fill wins over a pad_const mark; here two fills write the buffer,
// so the load does not take over initialising it and both stay. The mark no
// load consumed is removed whole.
// CHECK-LABEL: func.func @two_fills(
// CHECK-NOT: annotation.mark
// CHECK: hivm.hir.vbrc ins(%arg2
// CHECK: hivm.hir.vbrc ins(%arg2
// CHECK: hivm.hir.load ins(%arg0 : memref<8xi32>) outs(%{{.*}} : memref<8xi32>) pad_mode = <PadValue> pad_value = %arg2 : i32 eviction_policy = <EvictFirst>
func.func @two_fills(%in: memref<8xi32>, %other: i32, %pad: i32) {
  %buf = memref.alloc() : memref<8xi32>
  annotation.mark %buf {keep_me} keys = ["pad_const"] values = [%other : i32] : memref<8xi32>
  hivm.hir.vbrc ins(%pad : i32) outs(%buf : memref<8xi32>)
  hivm.hir.vbrc ins(%pad : i32) outs(%buf : memref<8xi32>)
  memref.copy %in, %buf : memref<8xi32> to memref<8xi32>
  return
}

// -----

// Copies between local buffers are hivm.hir.copy; into a GM pointer_cast a
// store; in a vector function even a parameter-to-local copy stays a copy;
// materializes into local buffers and anything in scf.forall are kept.
// CHECK-LABEL: func.func @local_and_gm(
// CHECK: hivm.hir.copy ins(%[[A:.*]] : memref<16xf32>) outs(%[[B:.*]] : memref<16xf32>)
// CHECK: hivm.hir.store ins(%[[B]] : memref<16xf32>) outs(%{{.*}} : memref<16xf32>)
// CHECK: bufferization.materialize_in_destination
// CHECK: scf.forall
// CHECK-NEXT: memref.copy
// CHECK-LABEL: func.func @vf(
// CHECK: hivm.hir.copy ins(%arg0 : memref<16xf32>) outs(%arg1 : memref<16xf32>)
func.func @local_and_gm(%t: tensor<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  "test.fill"(%a) : (memref<16xf32>) -> ()
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : i64
  %gm = hivm.hir.pointer_cast(%c0) : memref<16xf32>
  annotation.mark %gm {address_space = #hivm.address_space<gm>} : memref<16xf32>
  memref.copy %b, %gm : memref<16xf32> to memref<16xf32>
  bufferization.materialize_in_destination %t in writable %a : (tensor<16xf32>, memref<16xf32>) -> ()
  scf.forall (%i) in (2) {
    memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  }
  return
}
func.func @vf(%x: memref<16xf32>, %y: memref<16xf32>) attributes {hivm.vector_function} {
  memref.copy %x, %y : memref<16xf32> to memref<16xf32>
  return
}

// -----

// HOST functions are not touched.
// CHECK-LABEL: func.func @host(
// CHECK: memref.copy
func.func @host(%x: memref<16xf32>, %y: memref<16xf32>) attributes {hacc.function_kind = #hacc.function_kind<HOST>} {
  memref.copy %x, %y : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A buffer a distributed custom op returns is global memory: copies out of
// it are loads, into a view of it stores.
// CHECK-LABEL: func.func @remote(
// CHECK: hivm.hir.load ins(%{{.*}} : memref<16xf32>) outs(%{{.*}} : memref<16xf32>)
// CHECK: hivm.hir.store ins(%{{.*}} : memref<8xf32>) outs(%{{.*}} : memref<8xf32, strided<[1]>>)
func.func @remote(%peer: memref<16xf32>) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
  %r = hivm.hir.custom {hivm.is_distributed, hivm.pipe = #hivm.pipe<PIPE_S>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "remote_view"} "dist.remote_view" ins(%peer : memref<16xf32>) -> memref<16xf32>
  %local = memref.alloc() : memref<16xf32>
  memref.copy %r, %local : memref<16xf32> to memref<16xf32>
  %half = memref.alloc() : memref<8xf32>
  "test.fill"(%half) : (memref<8xf32>) -> ()
  %part = memref.subview %r[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  memref.copy %half, %part : memref<8xf32> to memref<8xf32, strided<[1]>>
  return
}
