// A load that initialises its destination becomes a broadcast of the pad
// value over the whole buffer (under the load's condition), then the load.
// RUN: hivm-opt %s --split-input-file --hivm-aggregated-decompose-op="decompose-phase=before-hivm-align" | FileCheck %s

// CHECK-LABEL: func.func @masked_tail(
// CHECK-SAME: %[[SRC:[^:]+]]: memref<?xf32, #hivm.address_space<gm>>, %[[N:[^:]+]]: index, %[[PART:[^:]+]]: i1)
// CHECK: %[[BUF:[^ ]+]] = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
// CHECK: %[[VIEW:[^ ]+]] = memref.subview %[[BUF]][0] [%[[N]]] [1]
// CHECK: scf.if %[[PART]] {
// CHECK-NEXT: hivm.hir.vbrc ins(%[[PAD:[^ ]+]] : f32) outs(%[[BUF]] : memref<64xf32, #hivm.address_space<ub>>)
// CHECK-NEXT: } {hivm.unlikely_condition}
// CHECK-NEXT: hivm.hir.load ins(%{{.*}}) outs(%[[VIEW]] : {{.*}}) pad_mode = <PadValue> pad_value = %[[PAD]] : f32 left_padding_num = %{{.*}} : index eviction_policy = <EvictFirst>
// CHECK-NOT: init_out_buffer
func.func @masked_tail(%src: memref<?xf32, #hivm.address_space<gm>>, %n: index, %part: i1) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant -1.0 : f32
  %buf = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %in = memref.subview %src[0] [%n] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1]>, #hivm.address_space<gm>>
  %view = memref.subview %buf[0] [%n] [1] : memref<64xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  hivm.hir.load ins(%in : memref<?xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%view : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f32 left_padding_num = %c0 : index init_out_buffer = true init_condition = %part : i1 eviction_policy = <EvictFirst>
  return
}

// -----

// Without a condition the broadcast always runs; a cube-side load stays whole.
// CHECK-LABEL: func.func @always
// CHECK: hivm.hir.vbrc
// CHECK-NEXT: hivm.hir.load
// CHECK-LABEL: func.func @cube_side
// CHECK-NOT: hivm.hir.vbrc
// CHECK: init_out_buffer = true
func.func @always(%src: memref<64xf32, #hivm.address_space<gm>>) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%buf : memref<64xf32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f32 left_padding_num = %c0 : index init_out_buffer = true
  return
}
func.func @cube_side(%src: memref<64xf32, #hivm.address_space<gm>>) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<64xf32, #hivm.address_space<cbuf>>
  hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%buf : memref<64xf32, #hivm.address_space<cbuf>>) pad_mode = <PadValue> pad_value = %pad : f32 left_padding_num = %c0 : index init_out_buffer = true
  return
}
