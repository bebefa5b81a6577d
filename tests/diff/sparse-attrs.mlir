// Builtin sparse elements attributes: nested and splat index lists, splat
// values, empty forms, and every common element type (including hex bit
// patterns and NaN payloads, which print back as hex).
"test.sparse_floats"() {
  f32_hex = sparse<[[0, 1, 1], [1, 0, 0]], [0x7F800001, 0xFFFFFFFF]> : tensor<2x2x2xf32>,
  f32_dec = sparse<[[2, 0], [0, 3]], [-3.25, 1.0e-3]> : tensor<3x4xf32>,
  f16_vec = sparse<[[1, 0], [0, 1]], [0.5, -7.0]> : vector<2x2xf16>,
  f16_nan = sparse<[[1, 1]], [0x7E01]> : tensor<2x2xf16>,
  bf16_vals = sparse<[[0], [2]], [3.0e8, 0x7FC1]> : tensor<4xbf16>,
  f64_vals = sparse<[0, 3], [2.5, 0xFFF8000000000002]> : tensor<5xf64>,
  f64_denorm = sparse<[[0, 1]], [0x0000000000000001]> : tensor<2x2xf64>
} : () -> ()

"test.sparse_ints"() {
  splat_both = sparse<0, -5> : tensor<1xi64>,
  splat_index = sparse<[[1, 1]], [9]> : tensor<2x2xi8>,
  splat_value = sparse<[[0, 0], [1, 1]], 12> : tensor<2x2xi16>,
  bools = sparse<[[0, 1], [1, 0]], [true, false]> : tensor<2x2xi1>,
  idx = sparse<[[2, 1]], [42]> : tensor<3x3xindex>,
  unsigned = sparse<[[0], [1]], [255, 7]> : tensor<2xui8>,
  signed = sparse<[[1]], [-128]> : tensor<2xsi8>,
  wide = sparse<[[0, 0, 0, 1]], [123456789012345]> : tensor<1x1x1x2xi64>,
  hex_vals = sparse<[[0, 0], [1, 1]], "0x0700000008000000"> : tensor<2x2xi32>,
  memref_ty = sparse<[[0, 1]], [2]> : memref<2x2xi32>
} : () -> ()

"test.sparse_empty"() {
  zero_len = sparse<> : tensor<0xi32>,
  scalar = sparse<> : tensor<f32>,
  zero_dim = sparse<> : tensor<1x0x1xf32>,
  no_entries = sparse<> : tensor<4x4xf64>,
  empty_lists = sparse<[], []> : tensor<3xi32>,
  scalar_index = sparse<[[]], [5]> : tensor<i32>,
  empty_vec = sparse<> : vector<2xi8>
} : () -> ()

func.func @constant() -> tensor<3x3xf32> {
  %0 = arith.constant sparse<[[0, 2], [2, 0]], [1.5, -1.5]> : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
