// Whole kernels in the form triton-to-linalg hands to bishengir-compile
// (two leading memref<?xi8>, pointers as memref<?xT>, six trailing i32 grid
// values) run on the twin: masked loads with `other`, arith and math on
// tensors, make_range as data (linalg.generic + linalg.index), reductions,
// expand_shape and broadcast, transpose, matmul, a K loop with tensor
// iter_args, a custom op on tensors, masked stores.
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 16 range:0:1
// RUN: python3 %root/scripts/npy.py %t.y.npy f32 16 range:100:10
// RUN: python3 %root/scripts/npy.py %t.m.npy f32 15 3 1 4 1 5 9 2 6 5 3 5 8 9 7 9
// RUN: python3 %root/scripts/npy.py %t.x96.npy i32 96 range:0:1
// RUN: python3 %root/scripts/npy.py %t.ab.npy f32 6 range:1:1
// RUN: hivm-run %s --entry masked_add --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --arg 13 --arg 2 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --print 4 2>&1 | FileCheck %s --check-prefix=ONE --implicit-check-not=error
// RUN: hivm-run %s --entry masked_add --blocks 2 --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --arg 13 --arg 2 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 4 2>&1 | FileCheck %s --check-prefix=GRID --implicit-check-not=error
// RUN: not hivm-run %s --entry masked_add --blocks 3 --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --arg 13 --arg 2 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 2>&1 | FileCheck %s --check-prefix=BADGRID
// RUN: hivm-run %s --entry row_stats --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.m.npy --arg zeros:3xf32 --arg zeros:15xf32 --arg 3 --arg 5 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 --print 4 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error
// The tree-walking path (bodies not decoded into programs) gives the same numbers:
// RUN: HIVM_TWIN_INTERPRET=1 hivm-run %s --entry row_stats --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.m.npy --arg zeros:3xf32 --arg zeros:15xf32 --arg 3 --arg 5 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 --print 4 2>&1 | FileCheck %s --check-prefix=ROWS --implicit-check-not=error
// RUN: HIVM_TWIN_INTERPRET=1 hivm-run %s --entry dot --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.ab.npy --arg %t.ab.npy --arg zeros:4xf32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 4 2>&1 | FileCheck %s --check-prefix=DOT --implicit-check-not=error
// RUN: hivm-run %s --entry k_loop --impl %root/examples/custom_add/add.cpp --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x96.npy --arg zeros:32xi32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=KLOOP --implicit-check-not=error
// RUN: hivm-run %s --entry custom_loop --impl %root/examples/custom_add/add.cpp --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.x96.npy --arg zeros:32xi32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 3 2>&1 | FileCheck %s --check-prefix=CUSTOMLOOP --implicit-check-not=error
// RUN: hivm-run %s --entry dot --arg zeros:1xi8 --arg zeros:1xi8 --arg %t.ab.npy --arg %t.ab.npy --arg zeros:4xf32 --arg 1 --arg 1 --arg 1 --arg 0 --arg 0 --arg 0 --print 4 2>&1 | FileCheck %s --check-prefix=DOT --implicit-check-not=error

#map = affine_map<(d0) -> (d0)>
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
// out[i] = (x[i] + y[i]) * 2 + i for i < n = 13 in the program's block of 8,
// x[i] = i, y[i] = 100 + 10 i: 23 i + 200; y's `other` (-1) fills the
// masked lanes, which the masked store leaves unwritten.
// ONE: [0, 0, 0, 0, 0, 0, 0, 0, 384, 407, 430, 453, 476, 0, 0, 0]
// Two programs (grid 2x1x1) from --blocks 2: both halves.
// GRID: [200, 223, 246, 269, 292, 315, 338, 361, 384, 407, 430, 453, 476, 0, 0, 0]
// BADGRID: error: --blocks 3 does not match the launch grid 2x1x1 given in the program-count arguments
  func.func @masked_add(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant -1.000000e+00 : f32
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<8xf32>
    %0 = arith.muli %arg9, %c8_i32 : i32
    %1 = tensor.empty() : tensor<8xi32>
    %2 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%1 : tensor<8xi32>) {
    ^bb0(%out: i32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      linalg.yield %ii : i32
    } -> tensor<8xi32>
    %3 = tensor.empty() : tensor<8xi32>
    %4 = linalg.fill ins(%0 : i32) outs(%3 : tensor<8xi32>) -> tensor<8xi32>
    %5 = arith.addi %2, %4 : tensor<8xi32>
    %6 = arith.sitofp %5 : tensor<8xi32> to tensor<8xf32>
    %7 = arith.index_cast %0 : i32 to index
    %8 = arith.index_cast %arg5 : i32 to index
    %9 = arith.addi %7, %c8 : index
    %10 = arith.minsi %9, %8 : index
    %11 = arith.subi %10, %7 : index
    %12 = arith.maxsi %11, %c0 : index
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [%7], sizes: [8], strides: [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<8xf32>
    %subview = memref.subview %reinterpret_cast[0] [%12] [1] : memref<8xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_1 = memref.subview %alloc[0] [%12] [1] : memref<8xf32> to memref<?xf32, strided<[1]>>
    memref.copy %subview, %subview_1 : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1]>>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<8xf32> to tensor<8xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg3 to offset: [%7], sizes: [8], strides: [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: ?>>
    %alloc_3 = memref.alloc() : memref<8xf32>
    %14 = arith.cmpi slt, %12, %c8 : index
    scf.if %14 {
      linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<8xf32>)
    } {hivm.unlikely_condition}
    %subview_4 = memref.subview %reinterpret_cast_2[0] [%12] [1] : memref<8xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_5 = memref.subview %alloc_3[0] [%12] [1] : memref<8xf32> to memref<?xf32, strided<[1]>>
    memref.copy %subview_4, %subview_5 : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1]>>
    %15 = bufferization.to_tensor %alloc_3 restrict writable : memref<8xf32> to tensor<8xf32>
    %16 = arith.addf %13, %15 : tensor<8xf32>
    %17 = arith.mulf %16, %cst_0 : tensor<8xf32>
    %18 = arith.addf %17, %6 : tensor<8xf32>
    %reinterpret_cast_6 = memref.reinterpret_cast %arg4 to offset: [%7], sizes: [8], strides: [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %18[0] [%12] [1] : tensor<8xf32> to tensor<?xf32>
    %subview_7 = memref.subview %reinterpret_cast_6[0] [%12] [1] : memref<8xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_7 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }

// A 3x5 matrix in a 4x8 tile masked on both axes: row sums (other = 0) go
// out through tensor.expand_shape, x - row max (other = -inf, broadcast
// along the row) through a 2-D masked store.
// ROWS: [14, 25, 38]
// ROWS-NEXT: [-2, -4, -1, -4, 0, 0, -7, -3, -4, -6, -4, -1, 0, -2, 0]
  func.func @row_stats(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32, %arg12: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = arith.index_cast %arg5 : i32 to index
    %1 = arith.index_cast %arg6 : i32 to index
    %2 = arith.minsi %0, %c4 : index
    %3 = arith.minsi %1, %c8 : index
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [0], sizes: [4, 8], strides: [%1, 1] : memref<?xf32> to memref<4x8xf32, strided<[?, 1]>>
    %alloc = memref.alloc() : memref<4x8xf32>
    %4 = arith.cmpi slt, %2, %c4 : index
    %5 = arith.cmpi slt, %3, %c8 : index
    %6 = arith.ori %4, %5 : i1
    scf.if %6 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x8xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0, 0] [%2, %3] [1, 1] : memref<4x8xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1]>>
    %subview_1 = memref.subview %alloc[0, 0] [%2, %3] [1, 1] : memref<4x8xf32> to memref<?x?xf32, strided<[8, 1]>>
    memref.copy %subview, %subview_1 : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[8, 1]>>
    %7 = bufferization.to_tensor %alloc restrict writable : memref<4x8xf32> to tensor<4x8xf32>
    %alloc_2 = memref.alloc() : memref<4x8xf32>
    scf.if %6 {
      linalg.fill ins(%cst_0 : f32) outs(%alloc_2 : memref<4x8xf32>)
    } {hivm.unlikely_condition}
    %subview_3 = memref.subview %alloc_2[0, 0] [%2, %3] [1, 1] : memref<4x8xf32> to memref<?x?xf32, strided<[8, 1]>>
    memref.copy %subview, %subview_3 : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[8, 1]>>
    %8 = bufferization.to_tensor %alloc_2 restrict writable : memref<4x8xf32> to tensor<4x8xf32>
    %9 = tensor.empty() : tensor<4xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%7 : tensor<4x8xf32>) outs(%10 : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %20 = arith.addf %in, %init : f32
        linalg.yield %20 : f32
      }
    %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<4xf32>) -> tensor<4xf32>
    %reduced_4 = linalg.reduce ins(%8 : tensor<4x8xf32>) outs(%11 : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %20 = arith.maxnumf %in, %init : f32
        linalg.yield %20 : f32
      }
    %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
    %12 = tensor.empty() : tensor<4x8xf32>
    %broadcasted = linalg.broadcast ins(%reduced_4 : tensor<4xf32>) outs(%12 : tensor<4x8xf32>) dimensions = [1]
    %13 = arith.subf %7, %broadcasted : tensor<4x8xf32>
    %reinterpret_cast_5 = memref.reinterpret_cast %arg3 to offset: [0], sizes: [4, 1], strides: [1, 1] : memref<?xf32> to memref<4x1xf32, strided<[1, 1]>>
    %extracted_slice = tensor.extract_slice %expanded[0, 0] [%2, 1] [1, 1] : tensor<4x1xf32> to tensor<?x1xf32>
    %subview_6 = memref.subview %reinterpret_cast_5[0, 0] [%2, 1] [1, 1] : memref<4x1xf32, strided<[1, 1]>> to memref<?x1xf32, strided<[1, 1]>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_6 : (tensor<?x1xf32>, memref<?x1xf32, strided<[1, 1]>>) -> ()
    %reinterpret_cast_7 = memref.reinterpret_cast %arg4 to offset: [0], sizes: [4, 8], strides: [%1, 1] : memref<?xf32> to memref<4x8xf32, strided<[?, 1]>>
    %extracted_slice_8 = tensor.extract_slice %13[0, 0] [%2, %3] [1, 1] : tensor<4x8xf32> to tensor<?x?xf32>
    %subview_9 = memref.subview %reinterpret_cast_7[0, 0] [%2, %3] [1, 1] : memref<4x8xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1]>>
    bufferization.materialize_in_destination %extracted_slice_8 in writable %subview_9 : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
    return
  }

// Three chunks of 32 (x[i] = i): acc += custom_add(3 x, x) in an scf.for
// carrying the tensor, then minus make_range: 4 (96 + 3 i) - i = 384 + 11 i.
// KLOOP: [384, 395, 406, 417, 428, 439, 450, 461, 472, 483, 494, 505, 516, 527, 538, 549, 560, 571, 582, 593, 604, 615, 626, 637, 648, 659, 670, 681, 692, 703, 714, 725]
  func.func @k_loop(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<3> : tensor<32xi32>
    %0 = tensor.empty() : tensor<32xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<32xi32>) -> tensor<32xi32>
    %2:2 = scf.for %arg10 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg11 = %1, %arg12 = %c0) -> (tensor<32xi32>, index)  : i32 {
      %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [%arg12], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1], offset: ?>>
      %alloc = memref.alloc() : memref<32xi32>
      memref.copy %reinterpret_cast, %alloc : memref<32xi32, strided<[1], offset: ?>> to memref<32xi32>
      %3 = bufferization.to_tensor %alloc restrict writable : memref<32xi32> to tensor<32xi32>
      %4 = arith.muli %3, %cst : tensor<32xi32>
      %5 = tensor.empty() : tensor<32xi32>
      %6 = hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "add" ins(%4, %3 : tensor<32xi32>, tensor<32xi32>) outs(%5 : tensor<32xi32>) -> tensor<32xi32>
      %acc = arith.addi %arg11, %6 : tensor<32xi32>
      %7 = arith.addi %arg12, %c32 : index
      scf.yield %acc, %7 : tensor<32xi32>, index
    }
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2#0 : tensor<32xi32>) outs(%0 : tensor<32xi32>) {
    ^bb0(%in: i32, %out: i32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %s = arith.subi %in, %ii : i32
      linalg.yield %s : i32
    } -> tensor<32xi32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg3 to offset: [0], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1]>>
    bufferization.materialize_in_destination %8 in writable %reinterpret_cast_0 : (tensor<32xi32>, memref<32xi32, strided<[1]>>) -> ()
    return
  }
// The custom op's result itself carried by the loop (computed in a fresh
// buffer, yielded: what allow-return-allocs-from-loops permits):
// acc = 3 x + acc over the chunks, then minus make_range: 288 + 8 i.
// CUSTOMLOOP: [288, 296, 304, 312, 320, 328, 336, 344, 352, 360, 368, 376, 384, 392, 400, 408, 416, 424, 432, 440, 448, 456, 464, 472, 480, 488, 496, 504, 512, 520, 528, 536]
  func.func @custom_loop(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<3> : tensor<32xi32>
    %0 = tensor.empty() : tensor<32xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<32xi32>) -> tensor<32xi32>
    %2:2 = scf.for %arg10 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg11 = %1, %arg12 = %c0) -> (tensor<32xi32>, index)  : i32 {
      %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [%arg12], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1], offset: ?>>
      %alloc = memref.alloc() : memref<32xi32>
      memref.copy %reinterpret_cast, %alloc : memref<32xi32, strided<[1], offset: ?>> to memref<32xi32>
      %3 = bufferization.to_tensor %alloc restrict writable : memref<32xi32> to tensor<32xi32>
      %4 = arith.muli %3, %cst : tensor<32xi32>
      %5 = tensor.empty() : tensor<32xi32>
      %6 = hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "custom_add_int32"} "add" ins(%4, %arg11 : tensor<32xi32>, tensor<32xi32>) outs(%5 : tensor<32xi32>) -> tensor<32xi32>
      %7 = arith.addi %arg12, %c32 : index
      scf.yield %6, %7 : tensor<32xi32>, index
    }
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2#0 : tensor<32xi32>) outs(%0 : tensor<32xi32>) {
    ^bb0(%in: i32, %out: i32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %s = arith.subi %in, %ii : i32
      linalg.yield %s : i32
    } -> tensor<32xi32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg3 to offset: [0], sizes: [32], strides: [1] : memref<?xi32> to memref<32xi32, strided<[1]>>
    bufferization.materialize_in_destination %8 in writable %reinterpret_cast_0 : (tensor<32xi32>, memref<32xi32, strided<[1]>>) -> ()
    return
  }

// [[1,2,3],[4,5,6]] @ [[1,2],[3,4],[5,6]] = [[22,28],[49,64]], transposed,
// then sqrt(t * t) + exp(t - t) = t + 1.
// DOT: [23, 50, 29, 65]
  func.func @dot(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<?xf32> to memref<2x3xf32, strided<[3, 1]>>
    %alloc = memref.alloc() : memref<2x3xf32>
    memref.copy %reinterpret_cast, %alloc : memref<2x3xf32, strided<[3, 1]>> to memref<2x3xf32>
    %0 = bufferization.to_tensor %alloc restrict writable : memref<2x3xf32> to tensor<2x3xf32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg3 to offset: [0], sizes: [3, 2], strides: [2, 1] : memref<?xf32> to memref<3x2xf32, strided<[2, 1]>>
    %alloc_1 = memref.alloc() : memref<3x2xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<3x2xf32, strided<[2, 1]>> to memref<3x2xf32>
    %1 = bufferization.to_tensor %alloc_1 restrict writable : memref<3x2xf32> to tensor<3x2xf32>
    %2 = tensor.empty() : tensor<2x2xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %4 = linalg.matmul ins(%0, %1 : tensor<2x3xf32>, tensor<3x2xf32>) outs(%3 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %5 = tensor.empty() : tensor<2x2xf32>
    %transposed = linalg.transpose ins(%4 : tensor<2x2xf32>) outs(%5 : tensor<2x2xf32>) permutation = [1, 0]
    %6 = arith.mulf %transposed, %transposed : tensor<2x2xf32>
    %7 = math.sqrt %6 : tensor<2x2xf32>
    %8 = arith.subf %transposed, %transposed : tensor<2x2xf32>
    %9 = math.exp %8 : tensor<2x2xf32>
    %10 = arith.addf %7, %9 : tensor<2x2xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg4 to offset: [0], sizes: [2, 2], strides: [2, 1] : memref<?xf32> to memref<2x2xf32, strided<[2, 1]>>
    bufferization.materialize_in_destination %10 in writable %reinterpret_cast_2 : (tensor<2x2xf32>, memref<2x2xf32, strided<[2, 1]>>) -> ()
    return
  }
}
