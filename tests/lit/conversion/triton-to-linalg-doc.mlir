// The CustomOp document's triton_custom_add, as Triton's front end gives its TTIR
// (hivm.triton.compile(..., stage="ttir")), converted as triton-ascend's backend does.
// RUN: hivm-opt %s --triton-to-linalg='named-ops=true global-kernel=false' | FileCheck %s
module {
  tt.func public @triton_custom_add(%output_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %a_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %buf = arith.constant dense<0> : tensor<32xi32>
    %idx = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %a = tt.splat %a_ptr : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
    %a_0 = tt.addptr %a, %idx : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    %a_1 = tt.load %a_0 : tensor<32x!tt.ptr<i32>>
    %b = tt.splat %b_ptr : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
    %b_2 = tt.addptr %b, %idx : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    %b_3 = tt.load %b_2 : tensor<32x!tt.ptr<i32>>
    %0 = hivm.hir.custom {bitcode = "/home/test/add.bc", hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "add" ins(%a_1, %b_3 : tensor<32xi32>, tensor<32xi32>) outs(%buf : tensor<32xi32>) -> tensor<32xi32>
    %1 = tt.splat %output_ptr : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
    %2 = tt.addptr %1, %idx : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    tt.store %2, %0 : tensor<32x!tt.ptr<i32>>
    tt.return
  }
}
// CHECK:      module {
// CHECK-NEXT:   func.func @triton_custom_add(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %0 = tensor.empty() : tensor<32xi32>
// CHECK-NEXT:     %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<32xi32>) -> tensor<32xi32>
// CHECK-NEXT:     %reinterpret_cast = memref.reinterpret_cast %arg3 to offset: [0], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1]>>
// CHECK-NEXT:     %alloc = memref.alloc() : memref<32xi32>
// CHECK-NEXT:     memref.copy %reinterpret_cast, %alloc : memref<32xi32, strided<[1]>> to memref<32xi32>
// CHECK-NEXT:     %2 = bufferization.to_tensor %alloc restrict writable : memref<32xi32> to tensor<32xi32>
// CHECK-NEXT:     %reinterpret_cast_0 = memref.reinterpret_cast %arg4 to offset: [0], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1]>>
// CHECK-NEXT:     %alloc_1 = memref.alloc() : memref<32xi32>
// CHECK-NEXT:     memref.copy %reinterpret_cast_0, %alloc_1 : memref<32xi32, strided<[1]>> to memref<32xi32>
// CHECK-NEXT:     %3 = bufferization.to_tensor %alloc_1 restrict writable : memref<32xi32> to tensor<32xi32>
// CHECK-NEXT:     %4 = hivm.hir.custom {bitcode = "/home/test/add.bc", hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "add" ins(%2, %3 : tensor<32xi32>, tensor<32xi32>) outs(%1 : tensor<32xi32>) -> tensor<32xi32>
// CHECK-NEXT:     %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1]>>
// CHECK-NEXT:     bufferization.materialize_in_destination %4 in writable %reinterpret_cast_2 : (tensor<32xi32>, memref<32xi32, strided<[1]>>) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
