// RUN: hivm-opt %s --split-input-file --hivm-expose-memref-write-to-tensor -allow-unregistered-dialect | FileCheck %s

// The load writes a view of the buffer: that counts. Every earlier use of
// the tensor now reads the copy.
// CHECK-LABEL: func.func @through_view(
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[BUF:.*]] restrict writable
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT: %[[C:.*]] = hivm.hir.copy ins(%[[T]] : tensor<8x16xf32>) outs(%[[E]] : tensor<8x16xf32>) {to_be_replaced} -> tensor<8x16xf32>
// CHECK: hivm.hir.vexp ins(%[[C]] : tensor<8x16xf32>)
// CHECK: return %[[C]]
func.func @through_view(%gm: memref<4x16xf32>) -> tensor<8x16xf32> {
  %buf = memref.alloc() : memref<8x16xf32>
  %top = memref.subview %buf[0, 0] [4, 16] [1, 1] : memref<8x16xf32> to memref<4x16xf32, strided<[16, 1]>>
  hivm.hir.load ins(%gm : memref<4x16xf32>) outs(%top : memref<4x16xf32, strided<[16, 1]>>)
  %t = bufferization.to_tensor %buf restrict writable : memref<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = hivm.hir.vexp ins(%t : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}

// -----

// Not exposed: a to_tensor that is not writable, a write after the
// to_tensor, a write only under an scf.if (it does not dominate), and a
// buffer only read before.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: to_be_replaced
func.func @left_alone(%gm: memref<16xf32>, %c: i1) {
  %a = memref.alloc() : memref<16xf32>
  hivm.hir.load ins(%gm : memref<16xf32>) outs(%a : memref<16xf32>)
  %ta = bufferization.to_tensor %a restrict : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %tb = bufferization.to_tensor %b restrict writable : memref<16xf32>
  hivm.hir.load ins(%gm : memref<16xf32>) outs(%b : memref<16xf32>)
  %d = memref.alloc() : memref<16xf32>
  scf.if %c {
    hivm.hir.load ins(%gm : memref<16xf32>) outs(%d : memref<16xf32>)
  }
  %td = bufferization.to_tensor %d restrict writable : memref<16xf32>
  %s = memref.alloc() : memref<16xf32>
  hivm.hir.store ins(%s : memref<16xf32>) outs(%gm : memref<16xf32>)
  %ts = bufferization.to_tensor %s restrict writable : memref<16xf32>
  "test.use"(%ta, %tb, %td, %ts) : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> ()
  return
}
