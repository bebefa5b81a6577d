// memref.view: a typed view at a byte shift into a 1-d i8 buffer, as
// kernels view their workspace argument.
// RUN: hivm-run %s --entry view --arg zeros:32xi8 --arg zeros:4xf32 --print 0 --print 1 2>&1 | FileCheck %s
// RUN: not hivm-run %s --entry misaligned --arg zeros:32xi8 2>&1 | FileCheck %s --check-prefix=ALIGN
// CHECK: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -64, 63, 0,
// CHECK: [1.5, 0, 0, 0]
// ALIGN: memref-view.mlir:[[@LINE+4]]:8: error: memref.view at byte 2, which is not a multiple of the 4-byte element
func.func @misaligned(%ws: memref<32xi8>) {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %v = memref.view %ws[%c2][] : memref<32xi8> to memref<4xf32>
  return
}

func.func @view(%ws: memref<32xi8>, %out: memref<4xf32>) {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.5 : f32
  %v = memref.view %ws[%c8][] : memref<32xi8> to memref<4xf32>
  memref.store %x, %v[%c0] : memref<4xf32>
  memref.copy %v, %out : memref<4xf32> to memref<4xf32>
  return
}
