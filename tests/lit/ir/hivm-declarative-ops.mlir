// Ops defined declaratively (crates/ir/src/opspec): each prints with upstream's
// format (MLIR's spacing, optional clauses, defaults elided, enum attributes
// accepted in full form and printed stripped) and survives the generic form.
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

func.func @ops(%ub: memref<16x8xf16, #hivm.address_space<ub>>, %ubt: memref<8x16xf16, #hivm.address_space<ub>>,
               %gm: memref<?xf32, #hivm.address_space<gm>>, %t: tensor<16xf32>, %idx: tensor<16xi32>,
               %n: index, %i: i64, %f: f16, %lock: memref<1xi64>, %mask: tensor<16xi1>) {
  hivm.hir.vtranspose ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ubt : memref<8x16xf16, #hivm.address_space<ub>>) permutation = [1, 0]
  hivm.hir.vtranspose ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ubt : memref<8x16xf16, #hivm.address_space<ub>>) permutation = [1, 0] disable_align = false
  %r = hivm.hir.varange offset[%n] strides[%n, %n] outs(%t : tensor<16xf32>) -> tensor<16xf32>
  hivm.hir.vpad ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ub : memref<16x8xf16, #hivm.address_space<ub>>) low[0, %n] high[%n, 2] pad_value %f : f16
  hivm.hir.vcumsum ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ub : memref<16x8xf16, #hivm.address_space<ub>>) cum_dims = [0] reverse = true
  %c = hivm.hir.vconcat dim(0) ins(%t, %t : tensor<16xf32>, tensor<16xf32>) outs(%t : tensor<16xf32>) -> tensor<16xf32>
  hivm.hir.vcast ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ub : memref<16x8xf16, #hivm.address_space<ub>>) round_mode = #hivm.round_mode<floor>
  hivm.hir.vcast ins(%ub : memref<16x8xf16, #hivm.address_space<ub>>) outs(%ub : memref<16x8xf16, #hivm.address_space<ub>>) round_mode = <ceil> cast = <cast_unsigned>
  %g = hivm.hir.gather_load ins(%gm : memref<?xf32, #hivm.address_space<gm>>, %idx : tensor<16xi32>, %i : i64) outs(%t : tensor<16xf32>) {cache = #hivm.cache_modifier<none>} -> tensor<16xf32>
  %l = hivm.hir.convert_layout %ub output_shape [8, %n] {dstLayout = #hivm.data_layout<Fractal, fractalSizes = [16, 16]>, srcLayout = #hivm.data_layout<ND, transpose = false>} : (memref<16x8xf16, #hivm.address_space<ub>>) -> memref<8x?xf16, #hivm.address_space<ub>>
  hivm.hir.debug {debugtype = "print", hex = false, prefix = "x: "} %t : tensor<16xf32>
  hivm.hir.dcci(<single_cache_line>, <all>, %lock : memref<1xi64>)
  hivm.hir.set_atomic kind = <add> [type = f32]
  %b = hivm.hir.bitcast %i : i64 -> f64
  %k = hivm.hir.create_sync_block_lock from %lock : from memref<1xi64> to memref<1xi64>
  hivm.hir.sync_block_lock lock_var(%k : memref<1xi64>)
  hivm.hir.sync_block[<ALL_CUBE>, 1 : i16] tcube_pipe = <PIPE_FIX>
  hivm.hir.anchor {id = 3 : i64}
  return
}

// CHECK: hivm.hir.vtranspose ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg1 : memref<8x16xf16, #hivm.address_space<ub>>) permutation = [1, 0]
// CHECK-NEXT: hivm.hir.vtranspose ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg1 : memref<8x16xf16, #hivm.address_space<ub>>)
// CHECK-NEXT: %0 = hivm.hir.varange offset[%arg5] strides[%arg5, %arg5] outs(%arg3 : tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: hivm.hir.vpad ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) low[0, %arg5] high[%arg5, 2] pad_value %arg7 : f16
// CHECK-NEXT: hivm.hir.vcumsum ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) cum_dims = [0] reverse = true
// CHECK-NEXT: %1 = hivm.hir.vconcat dim(0) ins(%arg3, %arg3 : tensor<16xf32>, tensor<16xf32>) outs(%arg3 : tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: hivm.hir.vcast ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) round_mode = <floor>
// CHECK-NEXT: hivm.hir.vcast ins(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) outs(%arg0 : memref<16x8xf16, #hivm.address_space<ub>>) round_mode = <ceil> cast = <cast_unsigned>
// CHECK-NEXT: %2 = hivm.hir.gather_load ins(%arg2 : memref<?xf32, #hivm.address_space<gm>>, %arg4 : tensor<16xi32>, %arg6 : i64) outs(%arg3 : tensor<16xf32>) {cache = #hivm.cache_modifier<none>} -> tensor<16xf32>
// CHECK-NEXT: %3 = hivm.hir.convert_layout %arg0 output_shape [8, %arg5] {dstLayout = #hivm.data_layout<Fractal, fractalSizes = [16, 16]>, srcLayout = #hivm.data_layout<ND, transpose = false>} : (memref<16x8xf16, #hivm.address_space<ub>>) -> memref<8x?xf16, #hivm.address_space<ub>>
// CHECK-NEXT: hivm.hir.debug {debugtype = "print", hex = false, prefix = "x: "} %arg3 : tensor<16xf32>
// CHECK-NEXT: hivm.hir.dcci(<single_cache_line>, <all>, %arg8 : memref<1xi64>)
// CHECK-NEXT: hivm.hir.set_atomic kind = <add>[type = f32]
// CHECK-NEXT: %4 = hivm.hir.bitcast %arg6 : i64 -> f64
// CHECK-NEXT: %5 = hivm.hir.create_sync_block_lock from %arg8 : from memref<1xi64> to memref<1xi64>
// CHECK-NEXT: hivm.hir.sync_block_lock lock_var(%5 : memref<1xi64>)
// CHECK-NEXT: hivm.hir.sync_block[<ALL_CUBE>, 1 : i16] tcube_pipe = <PIPE_FIX>
// CHECK-NEXT: hivm.hir.anchor {id = 3 : i64}
