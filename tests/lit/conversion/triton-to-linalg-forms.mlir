// Forms around the kernels: several kernels each in its own module (the
// parser wraps them in one implicit module) are all converted, and a
// barrier stays where the kernel put it.
// RUN: hivm-opt %s --triton-to-linalg='global-kernel=false' | FileCheck %s
module {
  tt.func public @first(%p: !tt.ptr<i32>, %v: i32) {
    tt.store %p, %v : !tt.ptr<i32>
    tt.return
  }
}
module {
  tt.func public @second(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %x = tt.load %p : !tt.ptr<f16>
    gpu.barrier
    tt.store %q, %x : !tt.ptr<f16>
    tt.return
  }
}
// CHECK:       module {
// CHECK:         module {
// CHECK:           func.func @first(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xi32> {tt.tensor_kind = 1 : i32}, %arg3: i32,
// CHECK-SAME:        global_kernel = "local"
// CHECK-NOT:       tt.
// CHECK:         module {
// CHECK:           func.func @second(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf16> {tt.tensor_kind = 0 : i32}, %arg3: memref<?xf16> {tt.tensor_kind = 1 : i32},
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%c0] : memref<1xf16, strided<[1]>>
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        tensor.empty
// CHECK-NEXT:        linalg.fill ins(%[[X]] : f16)
// CHECK-NOT:       tt.
