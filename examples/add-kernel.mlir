// A vector-add kernel as AscendNPU-IR hands it to the custom-op passes: the
// `hivm.hir.custom` op is written in generic form, which hivm-opt and mlir-opt
// both read with --allow-unregistered-dialect until the HIVM dialect lands.
module {
  func.func @add_kernel(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c256 step %c64 {
      %xs = memref.subview %x[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
      %ys = memref.subview %y[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
      %zs = memref.subview %z[%i] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: ?>>
      "hivm.hir.custom"(%xs, %ys, %zs) <{name = "custom_add", operandSegmentSizes = array<i32: 2, 1, 0>}> {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_f32"} : (memref<64xf32, strided<[1], offset: ?>>, memref<64xf32, strided<[1], offset: ?>>, memref<64xf32, strided<[1], offset: ?>>) -> ()
    }
    return
  }
}
