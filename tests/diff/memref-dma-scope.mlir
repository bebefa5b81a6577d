// memref DMA and prefetch ops, alloca scopes (the implied terminator, the two
// spaces), reshape (functional type), rank; and a function written in the old
// syntax (argument types only, named by the entry block) and transposed views, as mlir-opt prints them.
func.func @m(%a: memref<256xf32>, %b: memref<256xf32, 1>, %t: memref<1xf32>, %i: index, %n: index, %u: memref<*xf32>, %s: memref<1xi32>, %q: memref<4x4xi32>) -> (memref<?xf32>, index) {
  memref.dma_start %a[%i], %b[%i], %n, %t[%i] : memref<256xf32>, memref<256xf32, 1>, memref<1xf32>
  memref.dma_start %a[%i], %b[%i], %n, %t[%i], %n, %i : memref<256xf32>, memref<256xf32, 1>, memref<1xf32>
  memref.dma_wait %t[%i], %n : memref<1xf32>
  %r = memref.reshape %u(%s) : (memref<*xf32>, memref<1xi32>) -> memref<?xf32>
  %k = memref.rank %u : memref<*xf32>
  memref.prefetch %q[%i, %i], write, locality<1>, data : memref<4x4xi32>
  memref.prefetch %q[%i, %i], read, locality<3>, instr : memref<4x4xi32>
  memref.alloca_scope {
    %x = memref.alloca() : memref<4xf32>
  }
  %v = memref.alloca_scope -> (index) {
    memref.alloca_scope.return %i : index
  }
  return %r, %k : memref<?xf32>, index
}
func.func @f(memref<4xi32>, index) {
^bb0(%m: memref<4xi32>, %i: index):
  %v = memref.load %m[%i] : memref<4xi32>
  return
}
func.func @views(%m: memref<4x8xf32>) -> memref<8x4xf32, strided<[1, 8]>> {
  %t = memref.transpose %m (a, b) -> (b, a) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  return %t : memref<8x4xf32, strided<[1, 8]>>
}
