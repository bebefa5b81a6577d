// Element-wise i32 addition through a user-implemented custom op, in the
// shape a Triton kernel takes after lowering: global buffers are copied in,
// the custom op computes on tensors, the result is written back. The C entry
// point of the implementation is `_mlir_ciface_custom_add_int32`.
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @custom_add(%out: memref<?xi32>, %lhs: memref<?xi32>, %rhs: memref<?xi32>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %zero = arith.constant 0 : i32
    %empty = tensor.empty() : tensor<32xi32>
    %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<32xi32>) -> tensor<32xi32>
    %lhs_view = memref.reinterpret_cast %lhs to offset: [0], sizes: [32], strides: [1]
        : memref<?xi32> to memref<32xi32, strided<[1]>>
    %lhs_buf = memref.alloc() : memref<32xi32>
    memref.copy %lhs_view, %lhs_buf : memref<32xi32, strided<[1]>> to memref<32xi32>
    %a = bufferization.to_tensor %lhs_buf restrict writable : memref<32xi32> to tensor<32xi32>
    %rhs_view = memref.reinterpret_cast %rhs to offset: [0], sizes: [32], strides: [1]
        : memref<?xi32> to memref<32xi32, strided<[1]>>
    %rhs_buf = memref.alloc() : memref<32xi32>
    memref.copy %rhs_view, %rhs_buf : memref<32xi32, strided<[1]>> to memref<32xi32>
    %b = bufferization.to_tensor %rhs_buf restrict writable : memref<32xi32> to tensor<32xi32>
    %sum = hivm.hir.custom
        {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>,
         hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32", bitcode = "custom_add.bc"}
        "custom_add" ins(%a, %b : tensor<32xi32>, tensor<32xi32>) outs(%init : tensor<32xi32>) -> tensor<32xi32>
    %out_view = memref.reinterpret_cast %out to offset: [0], sizes: [32], strides: [1]
        : memref<?xi32> to memref<32xi32, strided<[1]>>
    bufferization.materialize_in_destination %sum in writable %out_view
        : (tensor<32xi32>, memref<32xi32, strided<[1]>>) -> ()
    return
  }
}
