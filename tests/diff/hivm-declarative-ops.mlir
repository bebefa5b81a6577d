// DIFF-MODE: hivm
func.func @ops(%ub: memref<16x8xf16>, %ubt: memref<8x16xf16>,
               %gm: memref<?xf32>, %t: tensor<16xf32>, %idx: tensor<16xi32>,
               %n: index, %i: i64, %f: f16, %lock: memref<1xi64>, %mask: tensor<16xi1>) {
  hivm.hir.vtranspose ins(%ub : memref<16x8xf16>) outs(%ubt : memref<8x16xf16>) permutation = [1, 0]
  hivm.hir.vtranspose ins(%ub : memref<16x8xf16>) outs(%ubt : memref<8x16xf16>) permutation = [1, 0] disable_align = false
  %r = hivm.hir.varange offset[%n] strides[%n, %n] outs(%t : tensor<16xf32>) -> tensor<16xf32>
  hivm.hir.vpad ins(%ub : memref<16x8xf16>) outs(%ub : memref<16x8xf16>) low[0, %n] high[%n, 2] pad_value %f : f16
  hivm.hir.vcumsum ins(%ub : memref<16x8xf16>) outs(%ub : memref<16x8xf16>) cum_dims = [0] reverse = true
  %c = hivm.hir.vconcat dim(0) ins(%t, %t : tensor<16xf32>, tensor<16xf32>) outs(%t : tensor<16xf32>) -> tensor<16xf32>
  hivm.hir.vcast ins(%ub : memref<16x8xf16>) outs(%ub : memref<16x8xf16>) round_mode = #hivm.round_mode<floor>
  hivm.hir.vcast ins(%ub : memref<16x8xf16>) outs(%ub : memref<16x8xf16>) round_mode = <ceil> cast = <cast_unsigned>
  %g = hivm.hir.gather_load ins(%gm : memref<?xf32>, %idx : tensor<16xi32>, %i : i64) outs(%t : tensor<16xf32>) {cache = #hivm.cache_modifier<none>} -> tensor<16xf32>
  %l = hivm.hir.convert_layout %ub output_shape [8, %n] {dstLayout = #hivm.data_layout<Fractal, fractalSizes = [16, 16]>, srcLayout = #hivm.data_layout<ND, transpose = false>} : (memref<16x8xf16>) -> memref<8x?xf16>
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
