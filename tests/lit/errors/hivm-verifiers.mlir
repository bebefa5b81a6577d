// HIVM verifier messages in upstream's words: the #hivm.data_layout attribute,
// load/store/copy, convert_layout, the OTF and vtranspose checks, the global
// matmuls, create_sync_block_lock and fixpipe's dual destination.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @layout_needs_transpose() {
  "test.op"() {
    // expected-error @+1 {{'transpose' must be set if data layout is DOTA_ND or DOTB_ND}}
    l = #hivm.data_layout<dotB_ND, fractalSizes = [16, 16]>
  } : () -> ()
  return
}

// -----

func.func @layout_refuses_transpose() {
  "test.op"() {
    // expected-error @+1 {{'transpose' is only valid if data layout is DOTA_ND or DOTB_ND or ND like}}
    l = #hivm.data_layout<zN, transpose = false>
  } : () -> ()
  return
}

// -----

func.func @layout_nd_either_way() {
  "test.op"() {l0 = #hivm.data_layout<ND>, l1 = #hivm.data_layout<ND, transpose = true>} : () -> ()
  return
}

// -----

func.func @convert_layout_elements(%t: tensor<32x32xi8>) {
  // expected-error @+1 {{'hivm.hir.convert_layout' op requires the same element type for all operands and results}}
  %r = hivm.hir.convert_layout %t output_shape [2, 2, 16, 16] {dstLayout = #hivm.data_layout<zN>, srcLayout = #hivm.data_layout<ND>} : (tensor<32x32xi8>) -> tensor<2x2x16x16xi16>
  return
}

// -----

func.func @convert_layout_dynamic_count(%t: tensor<32x32xi8>) {
  // expected-error @+1 {{'hivm.hir.convert_layout' op expected 1 dynamic dimensions but got 0}}
  %r = "hivm.hir.convert_layout"(%t) <{dstLayout = #hivm.data_layout<zN>, srcLayout = #hivm.data_layout<ND>, static_output_shape = array<i64: -9223372036854775808, 32>}> : (tensor<32x32xi8>) -> tensor<?x32xi8>
  return
}

// -----

func.func @load_from_ub(%a: memref<8xf32, #hivm.address_space<ub>>, %b: memref<8xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{'hivm.hir.load' op only support src == gm and dst != gm currently!}}
  hivm.hir.load ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_first_elem_with_value(%a: memref<4x8xi32, #hivm.address_space<gm>>, %b: memref<4x16xi32, #hivm.address_space<ub>>, %v: i32) {
  // expected-error @+1 {{'hivm.hir.load' op if padmode is PadFirstElem, pad_value should not be set!}}
  hivm.hir.load ins(%a : memref<4x8xi32, #hivm.address_space<gm>>) outs(%b : memref<4x16xi32, #hivm.address_space<ub>>) pad_mode = <PadFirstElem> pad_value = %v : i32
  return
}

// -----

func.func @load_pad_shrinks(%a: memref<4x8xi32, #hivm.address_space<gm>>, %b: memref<4x6xi32, #hivm.address_space<ub>>, %v: i32) {
  // expected-error @+1 {{'hivm.hir.load' op dst last dimension cannot be less than src's}}
  hivm.hir.load ins(%a : memref<4x8xi32, #hivm.address_space<gm>>) outs(%b : memref<4x6xi32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %v : i32
  return
}

// -----

func.func @load_pad_other_dim(%a: memref<4x8xi32, #hivm.address_space<gm>>, %b: memref<5x16xi32, #hivm.address_space<ub>>, %v: i32) {
  // expected-error @+1 {{'hivm.hir.load' op only the last dimension can be different}}
  hivm.hir.load ins(%a : memref<4x8xi32, #hivm.address_space<gm>>) outs(%b : memref<5x16xi32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %v : i32
  return
}

// -----

func.func @load_value_without_mode(%a: memref<8xi32, #hivm.address_space<gm>>, %b: memref<8xi32, #hivm.address_space<ub>>, %v: i32) {
  // expected-error @+1 {{'hivm.hir.load' op if pad_mode is not set, pad_value should not be set!}}
  hivm.hir.load ins(%a : memref<8xi32, #hivm.address_space<gm>>) outs(%b : memref<8xi32, #hivm.address_space<ub>>) pad_value = %v : i32
  return
}

// -----

func.func @load_padding_count_type(%a: memref<8xi32, #hivm.address_space<gm>>, %b: memref<8xi32, #hivm.address_space<ub>>, %n: i32) {
  // expected-error @+1 {{'hivm.hir.load' op operand #2 must be index, but got 'i32'}}
  hivm.hir.load ins(%a : memref<8xi32, #hivm.address_space<gm>>) outs(%b : memref<8xi32, #hivm.address_space<ub>>) left_padding_num = %n : i32
  return
}

// -----

func.func @load_tensor_elements(%a: tensor<8xi32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'hivm.hir.load' op element types of dst and src should be the same!}}
  %r = hivm.hir.load ins(%a : tensor<8xi32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @load_mixed(%a: memref<8xi32, #hivm.address_space<gm>>, %b: tensor<8xi32>) {
  // expected-error @+1 {{'hivm.hir.load' op dst/src should be memref/memref or tensor/tensor, res should be tensor!}}
  %r = hivm.hir.load ins(%a : memref<8xi32, #hivm.address_space<gm>>) outs(%b : tensor<8xi32>) -> tensor<8xi32>
  return
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @load_fp8_before_950(%a: memref<8xf8E5M2, #hivm.address_space<gm>>, %b: memref<8xf8E5M2, #hivm.address_space<ub>>) {
    // expected-error @+1 {{'hivm.hir.load' op Current hardware doesn't support fp8 type}}
    hivm.hir.load ins(%a : memref<8xf8E5M2, #hivm.address_space<gm>>) outs(%b : memref<8xf8E5M2, #hivm.address_space<ub>>)
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910_9589">} {
  func.func @load_fp8_on_950(%a: memref<8xf8E5M2, #hivm.address_space<gm>>, %b: memref<8xf8E5M2, #hivm.address_space<ub>>) {
    hivm.hir.load ins(%a : memref<8xf8E5M2, #hivm.address_space<gm>>) outs(%b : memref<8xf8E5M2, #hivm.address_space<ub>>)
    return
  }
}

// -----

func.func @store_to_ub(%a: memref<8xf16, #hivm.address_space<ub>>, %b: memref<8xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{'hivm.hir.store' op only support store ub to gm currently!}}
  hivm.hir.store ins(%a : memref<8xf16, #hivm.address_space<ub>>) outs(%b : memref<8xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @store_shape(%a: tensor<8x2xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'hivm.hir.store' op src and dst should have the same dimensions!}}
  %r = hivm.hir.store ins(%a : tensor<8x2xf16>) outs(%b : tensor<8x4xf16>) -> tensor<8x4xf16>
  return
}

// -----

func.func @copy_from_l1(%a: memref<8xf16, #hivm.address_space<cbuf>>, %b: memref<8xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{'hivm.hir.copy' op Unsupported copy from cbuf to ub!}}
  hivm.hir.copy ins(%a : memref<8xf16, #hivm.address_space<cbuf>>) outs(%b : memref<8xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @copy_tensor_to_gm(%a: tensor<8xf16>, %b: memref<8xf16, #hivm.address_space<gm>>) {
  // expected-error @+1 {{'hivm.hir.copy' op Unsupported copy to gm!}}
  hivm.hir.copy ins(%a : tensor<8xf16>) outs(%b : memref<8xf16, #hivm.address_space<gm>>)
  return
}

// -----

func.func @copy_pad_value_type(%a: memref<8xf16, #hivm.address_space<ub>>, %b: memref<8xf16, #hivm.address_space<ub>>, %v: f32) {
  // expected-error @+1 {{'hivm.hir.copy' op dtype of pad_value and element type of dst/src should be the same!}}
  hivm.hir.copy ins(%a : memref<8xf16, #hivm.address_space<ub>>) outs(%b : memref<8xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %v : f32
  return
}

// -----

func.func @copy_rank(%a: tensor<8xf16>, %b: tensor<8x1xf16>) {
  // expected-error @+1 {{'hivm.hir.copy' op src and dst should have the same dimensions!}}
  %r = hivm.hir.copy ins(%a : tensor<8xf16>) outs(%b : tensor<8x1xf16>) -> tensor<8x1xf16>
  return
}

// -----

func.func @sub_broadcast_and_transpose(%a: memref<2x1xf32>, %b: memref<2x4xf32>, %c: memref<4x2xf32>) {
  // expected-error @+1 {{Broadcast OTF and Transpose OTF cannot be enabled at the same time}}
  hivm.hir.vsub ins(%a, %b : memref<2x1xf32>, memref<2x4xf32>) outs(%c : memref<4x2xf32>) broadcast = [1] transpose = [1, 0]
  return
}

// -----

func.func @transpose_no_permutation(%a: memref<4x8xf16>, %b: memref<8x4xf16>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op Permutation array should not be empty.}}
  hivm.hir.vtranspose ins(%a : memref<4x8xf16>) outs(%b : memref<8x4xf16>)
  return
}

// -----

func.func @transpose_bad_index(%a: memref<4x8xf16>, %b: memref<8x4xf16>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op have invalid index '2' inside permutation array}}
  hivm.hir.vtranspose ins(%a : memref<4x8xf16>) outs(%b : memref<8x4xf16>) permutation = [2, 0]
  return
}

// -----

func.func @transpose_three_axes(%a: memref<2x4x8xf16>, %b: memref<4x8x2xf16>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op Vtranspose only support two axes transpose}}
  hivm.hir.vtranspose ins(%a : memref<2x4x8xf16>) outs(%b : memref<4x8x2xf16>) permutation = [1, 2, 0]
  return
}

// -----

func.func @transpose_rank4_cycle(%a: memref<2x4x8x16xf16>, %b: memref<16x2x4x8xf16>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op Vtranspose supports only swapping two axes; for rank-4, also allows permutations equivalent to two swaps (got moved=4, swaps=3)}}
  hivm.hir.vtranspose ins(%a : memref<2x4x8x16xf16>) outs(%b : memref<16x2x4x8xf16>) permutation = [3, 0, 1, 2]
  return
}

// -----

func.func @transpose_rank4_two_swaps(%a: memref<2x4x8x16xf16>, %b: memref<4x2x16x8xf16>) {
  hivm.hir.vtranspose ins(%a : memref<2x4x8x16xf16>) outs(%b : memref<4x2x16x8xf16>) permutation = [1, 0, 3, 2]
  return
}

// -----

func.func @transpose_elements(%a: memref<4x8xf16>, %b: memref<8x4xf32>) {
  // expected-error @+1 {{'hivm.hir.vtranspose' op ElementType of src and dst are not the same}}
  hivm.hir.vtranspose ins(%a : memref<4x8xf16>) outs(%b : memref<8x4xf32>) permutation = [1, 0]
  return
}

// -----

func.func @matmul_per_channel(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>, %d: memref<32xf32>) {
  // expected-error @+1 {{'hivm.hir.matmul' op The descaleMode is DescalePerChannel, the size of descale is equal to the col size of B}}
  hivm.hir.matmul ins(%a, %b : memref<32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf32>) descale = %d : memref<32xf32> descale_mode = <DescalePerChannel>
  return
}

// -----

func.func @matmul_bias_rank(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>, %bias: memref<1x48xf32>) {
  // expected-error @+1 {{'hivm.hir.matmul' op bias must must be 1D}}
  hivm.hir.matmul ins(%a, %b : memref<32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf32>) bias = %bias : memref<1x48xf32>
  return
}

// -----

func.func @matmul_dynamic_bias(%a: memref<32x64xf16>, %b: memref<64x?xf16>, %c: memref<32x?xf32>, %bias: memref<16xf32>) {
  hivm.hir.matmul ins(%a, %b : memref<32x64xf16>, memref<64x?xf16>) outs(%c : memref<32x?xf32>) bias = %bias : memref<16xf32>
  return
}

// -----

func.func @matmul_tiling_twice(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>, %t: memref<8xi64>, %s: i64) {
  // expected-error @+1 {{'hivm.hir.matmul' op `TilingParams` and the other explicit tiling params cannot be set at the same time}}
  hivm.hir.matmul ins(%a, %b : memref<32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf32>) tiling_params = %t : memref<8xi64> swizzle_offset = %s : i64
  return
}

// -----

func.func @matmul_block_sizes(%a: memref<32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf32>, %s: i64) {
  // expected-error @+1 {{'hivm.hir.matmul' op The size of Blocksize should be 3. The order is blockM, blockN, blockK}}
  hivm.hir.matmul ins(%a, %b : memref<32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf32>) block_sizes(%s, %s : i64, i64)
  return
}

// -----

func.func @mix_matmul_rank(%a: memref<2x32x64xf16>, %b: memref<64x48xf16>, %c: memref<32x48xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_matmul' op matrix A and matrix B must be 2D}}
  hivm.hir.mix_matmul ins(%a, %b : memref<2x32x64xf16>, memref<64x48xf16>) outs(%c : memref<32x48xf16>)
  return
}

// -----

func.func @mix_group_matmul_tokens(%a: memref<4x64x48xf16>, %b: memref<32x64xf16>, %n: memref<4x1xi64>, %c: memref<32x48xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_group_matmul' op matrix TokensPerExpert must be 1D}}
  hivm.hir.mix_group_matmul ins(%a, %b, %n : memref<4x64x48xf16>, memref<32x64xf16>, memref<4x1xi64>) outs(%c : memref<32x48xf16>)
  return
}

// -----

func.func @mix_group_matmul_bias(%a: memref<4x64x48xf16>, %b: memref<32x64xf16>, %n: memref<4xi64>, %c: memref<32x48xf16>, %bias: memref<48xf16>) {
  // expected-error @+1 {{'hivm.hir.mix_group_matmul' op The size of bias is equal to the col size of B}}
  hivm.hir.mix_group_matmul ins(%a, %b, %n : memref<4x64x48xf16>, memref<32x64xf16>, memref<4xi64>) outs(%c : memref<32x48xf16>) bias = %bias : memref<48xf16>
  return
}

// -----

func.func @lock_dynamic() {
  // expected-error @+1 {{'hivm.hir.create_sync_block_lock' op 'create_sync_block_lock' op should only support static shape}}
  %l = hivm.hir.create_sync_block_lock : memref<2x?xi64>
  return
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B2">} {
  func.func @dual_dst_before_950(%a: memref<16x16xf32, #hivm.address_space<cc>>, %b: memref<16x16xf32, #hivm.address_space<gm>>) {
    // expected-error @+1 {{'hivm.hir.fixpipe' op dual_dst_mode is only supported on Ascend950!}}
    hivm.hir.fixpipe ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<16x16xf32, #hivm.address_space<gm>>) dual_dst_mode = <COLUMN_SPLIT>
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend950PR_9579">} {
  func.func @dual_dst_to_gm(%a: memref<16x16xf32, #hivm.address_space<cc>>, %b: memref<16x16xf32, #hivm.address_space<gm>>) {
    // expected-error @+1 {{'hivm.hir.fixpipe' op if dual_dst_mode is enabled, the data movement must be performed from L0C to UB!}}
    hivm.hir.fixpipe ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<16x16xf32, #hivm.address_space<gm>>) dual_dst_mode = <ROW_SPLIT>
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend950PR_9579">} {
  func.func @dual_dst_to_ub(%a: memref<16x16xf32, #hivm.address_space<cc>>, %b: memref<16x16xf32, #hivm.address_space<ub>>) {
    hivm.hir.fixpipe {sub_block_idx = #hivm.fixpipe_sub_block<sub_block_0>} ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<16x16xf32, #hivm.address_space<ub>>) dual_dst_mode = <NO_DUAL>
    hivm.hir.fixpipe ins(%a : memref<16x16xf32, #hivm.address_space<cc>>) outs(%b : memref<16x16xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    return
  }
}
