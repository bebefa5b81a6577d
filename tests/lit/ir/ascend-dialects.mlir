// AscendNPU-IR's own small dialects: memref_ext.alloc_workspace (with and
// without a workspace, sizes and offsets) and scope.scope / scope.return
// (the terminator implied when there is nothing to return).
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s -mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK-LABEL: func.func @workspace
func.func @workspace(%ws: memref<?xi8>, %o: index, %n: index) {
  // CHECK: %{{.*}} = memref_ext.alloc_workspace() from %arg0 offset = [%arg1] : from memref<?xi8> to memref<128x64xf32>
  %a = memref_ext.alloc_workspace() from %ws offset = [%o] : from memref<?xi8> to memref<128x64xf32>
  // CHECK: %{{.*}} = memref_ext.alloc_workspace(%arg2) from %arg0 : from memref<?xi8> to memref<?x16xf16>
  %b = memref_ext.alloc_workspace(%n) from %ws : from memref<?xi8> to memref<?x16xf16>
  // CHECK: %{{.*}} = memref_ext.alloc_workspace() : memref<8xf32>
  %c = memref_ext.alloc_workspace() : memref<8xf32>
  return
}

// CHECK-LABEL: func.func @scopes
func.func @scopes(%a: i32) -> i32 {
  // CHECK: scope.scope : () -> () {
  // CHECK-NEXT: arith.constant 1 : i32
  // CHECK-NEXT: scope.return
  scope.scope : () -> () {
    %c = arith.constant 1 : i32
  }
  // CHECK: %{{.*}} = scope.scope : () -> i32 {
  // CHECK-NEXT: scope.return %arg0 : i32
  // CHECK-NEXT: } {no_inline}
  %r = scope.scope : () -> i32 {
    scope.return %a : i32
  } {no_inline}
  return %r : i32
}
