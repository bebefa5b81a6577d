// A tensor-level custom op declaring a scratch buffer: hivm-run allocates it
// (hivm-alloc-extra-buffer), bufferizes the kernel, and the implementation
// gets it as its tmps operand, in UB like the op's other local buffers.
// RUN: hivm-run %s --impl %S/Inputs/scratch.cpp --arg zeros:64xf32 --print 0 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126]
func.func @kernel(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %e = tensor.empty() : tensor<64xf32>
  %in = scf.for %i = %c0 to %c64 step %c1 iter_args(%t = %e) -> (tensor<64xf32>) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %t2 = tensor.insert %f into %t[%i] : tensor<64xf32>
    scf.yield %t2 : tensor<64xf32>
  }
  %init = tensor.empty() : tensor<64xf32>
  %r = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "double_via_scratch",
                        extra_buffers_types = [f32], extra_buffers_sizes = [64]}
      "double" ins(%in : tensor<64xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
  bufferization.materialize_in_destination %r in writable %out : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}
