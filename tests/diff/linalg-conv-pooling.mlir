// linalg's OpDSL named ops with fixed loop nests: convolutions (plain,
// channelled, grouped, quantized with zero points), depthwise convolutions,
// poolings, the matrix-vector family, mmt4d, the quantized matmuls, plus
// linalg.contract and linalg.batch_reduce_matmul. Generic output shows the
// bodies built from the operand types, the strides/dilations properties
// when written, and the indexing maps the verifier memoizes (strides and
// dilations folded into them).

func.func @plain_convs(%i1: memref<10xf32>, %k1: memref<3xf32>, %o1: memref<8xf32>,
                       %i2: tensor<9x7xi8>, %k2: tensor<2x3xi8>, %o2: tensor<8x5xi32>,
                       %i3: memref<?x?x?xf16>, %k3: memref<?x?x?xf16>, %o3: memref<?x?x?xf32>) -> tensor<8x5xi32> {
  linalg.conv_1d ins(%i1, %k1 : memref<10xf32>, memref<3xf32>) outs(%o1 : memref<8xf32>)
  %0 = linalg.conv_2d ins(%i2, %k2 : tensor<9x7xi8>, tensor<2x3xi8>) outs(%o2 : tensor<8x5xi32>) -> tensor<8x5xi32>
  linalg.conv_3d ins(%i3, %k3 : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%o3 : memref<?x?x?xf32>)
  return %0 : tensor<8x5xi32>
}

func.func @one_d(%in: tensor<2x11x4xf32>, %w: tensor<3x4x6xf32>, %acc: tensor<2x5x6xf32>,
                 %nc: memref<2x4x11xf32>, %fc: memref<6x4x3xf32>, %oc: memref<2x6x9xf32>) -> tensor<2x5x6xf32> {
  %0 = linalg.conv_1d_nwc_wcf {strides = dense<2> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
         ins(%in, %w : tensor<2x11x4xf32>, tensor<3x4x6xf32>) outs(%acc : tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  linalg.conv_1d_ncw_fcw ins(%nc, %fc : memref<2x4x11xf32>, memref<6x4x3xf32>) outs(%oc : memref<2x6x9xf32>)
  return %0 : tensor<2x5x6xf32>
}

func.func @two_d(%in: memref<1x12x15x3xf32>, %hwcf: memref<3x3x3x8xf32>, %fhwc: memref<8x3x3x3xf32>, %out: memref<1x5x6x8xf32>,
                 %nchw: tensor<1x3x10x10xbf16>, %fchw: tensor<8x3x3x3xbf16>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  // Strides 2, dilations (1, 2): the input rows read d1 * 2 + d4, the
  // columns d2 * 2 + d5 * 2.
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %hwcf : memref<1x12x15x3xf32>, memref<3x3x3x8xf32>) outs(%out : memref<1x5x6x8xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 2]> : vector<2xi64>}
    ins(%in, %fhwc : memref<1x12x15x3xf32>, memref<8x3x3x3xf32>) outs(%out : memref<1x5x6x8xf32>)
  %0 = linalg.conv_2d_nchw_fchw ins(%nchw, %fchw : tensor<1x3x10x10xbf16>, tensor<8x3x3x3xbf16>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

func.func @grouped(%a: tensor<2x4x3x9x9xf32>, %fg: tensor<5x4x3x3x3xf32>, %gf: tensor<4x5x3x3x3xf32>, %o: tensor<2x4x5x7x7xf32>,
                   %b: memref<?x?x?x?x?xf32>, %k: memref<?x?x?x?x?xf32>, %c: memref<?x?x?x?x?xf32>) -> tensor<2x4x5x7x7xf32> {
  %0 = linalg.conv_2d_ngchw_fgchw ins(%a, %fg : tensor<2x4x3x9x9xf32>, tensor<5x4x3x3x3xf32>) outs(%o : tensor<2x4x5x7x7xf32>) -> tensor<2x4x5x7x7xf32>
  %1 = linalg.conv_2d_ngchw_gfchw ins(%a, %gf : tensor<2x4x3x9x9xf32>, tensor<4x5x3x3x3xf32>) outs(%0 : tensor<2x4x5x7x7xf32>) -> tensor<2x4x5x7x7xf32>
  linalg.conv_2d_nhwgc_gfhwc {strides = dense<1> : tensor<2xi64>} ins(%b, %k : memref<?x?x?x?x?xf32>, memref<?x?x?x?x?xf32>) outs(%c : memref<?x?x?x?x?xf32>)
  return %1 : tensor<2x4x5x7x7xf32>
}

func.func @three_d(%a: memref<1x6x6x6x2xf32>, %k: memref<2x2x2x2x4xf32>, %o: memref<1x5x5x5x4xf32>,
                   %b: tensor<1x2x7x7x7xf16>, %f: tensor<4x2x3x3x3xf16>, %p: tensor<1x4x3x3x3xf16>) -> tensor<1x4x3x3x3xf16> {
  linalg.conv_3d_ndhwc_dhwcf ins(%a, %k : memref<1x6x6x6x2xf32>, memref<2x2x2x2x4xf32>) outs(%o : memref<1x5x5x5x4xf32>)
  %0 = linalg.conv_3d_ncdhw_fcdhw {strides = dense<2> : tensor<3xi64>}
         ins(%b, %f : tensor<1x2x7x7x7xf16>, tensor<4x2x3x3x3xf16>) outs(%p : tensor<1x4x3x3x3xf16>) -> tensor<1x4x3x3x3xf16>
  return %0 : tensor<1x4x3x3x3xf16>
}

// Zero points are scalar inputs, cast and subtracted before the product.
func.func @quantized(%i: tensor<1x6x6x3xi8>, %hwcf: tensor<3x3x3x2xi8>, %fhwc: tensor<2x3x3x3xi8>, %zi: i32, %zk: i32, %o: tensor<1x4x4x2xi32>,
                     %nchw: memref<1x3x6x6xi8>, %fchw: memref<2x3x3x3xi8>, %on: memref<1x2x4x4xi32>,
                     %g: memref<1x6x6x2x3xi8>, %gk: memref<2x4x3x3x3xi8>, %go: memref<1x4x4x2x4xi32>,
                     %ng: tensor<1x2x3x6x6xi8>, %ngk: tensor<2x4x3x3x3xi8>, %ngo: tensor<1x2x4x4x4xi32>,
                     %v: memref<1x4x4x4x2xi8>, %vk: memref<2x2x2x2x3xi8>, %vo: memref<1x3x3x3x3xi32>, %z16: i16) -> tensor<1x2x4x4x4xi32> {
  %0 = linalg.conv_2d_nhwc_hwcf_q ins(%i, %hwcf, %zi, %zk : tensor<1x6x6x3xi8>, tensor<3x3x3x2xi8>, i32, i32) outs(%o : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %1 = linalg.conv_2d_nhwc_fhwc_q ins(%i, %fhwc, %zi, %zk : tensor<1x6x6x3xi8>, tensor<2x3x3x3xi8>, i32, i32) outs(%0 : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  linalg.conv_2d_nchw_fchw_q ins(%nchw, %fchw, %zi, %z16 : memref<1x3x6x6xi8>, memref<2x3x3x3xi8>, i32, i16) outs(%on : memref<1x2x4x4xi32>)
  linalg.conv_2d_nhwgc_gfhwc_q ins(%g, %gk, %zi, %zk : memref<1x6x6x2x3xi8>, memref<2x4x3x3x3xi8>, i32, i32) outs(%go : memref<1x4x4x2x4xi32>)
  %2 = linalg.conv_2d_ngchw_gfchw_q ins(%ng, %ngk, %zi, %zk : tensor<1x2x3x6x6xi8>, tensor<2x4x3x3x3xi8>, i32, i32) outs(%ngo : tensor<1x2x4x4x4xi32>) -> tensor<1x2x4x4x4xi32>
  linalg.conv_3d_ndhwc_dhwcf_q ins(%v, %vk, %zi, %zk : memref<1x4x4x4x2xi8>, memref<2x2x2x2x3xi8>, i32, i32) outs(%vo : memref<1x3x3x3x3xi32>)
  return %2 : tensor<1x2x4x4x4xi32>
}

func.func @depthwise(%a: tensor<1x9x4xf32>, %ak: tensor<3x4xf32>, %ao: tensor<1x7x4xf32>,
                     %b: memref<1x4x9xf32>, %bk: memref<4x3xf32>, %bo: memref<1x4x4xf32>,
                     %c: memref<1x9x4xf32>, %ck: memref<3x4x2xf32>, %co: memref<1x7x4x2xf32>,
                     %d: tensor<2x8x8x3xf32>, %dk: tensor<3x3x3xf32>, %do: tensor<2x3x3x3xf32>,
                     %e: tensor<2x3x8x8xf32>, %ek: tensor<3x3x3xf32>, %eo: tensor<2x3x6x6xf32>,
                     %f: memref<2x8x8x3xf32>, %fk: memref<3x3x3x2xf32>, %fo: memref<2x4x4x3x2xf32>) -> tensor<1x7x4xf32> {
  %0 = linalg.depthwise_conv_1d_nwc_wc ins(%a, %ak : tensor<1x9x4xf32>, tensor<3x4xf32>) outs(%ao : tensor<1x7x4xf32>) -> tensor<1x7x4xf32>
  linalg.depthwise_conv_1d_ncw_cw {strides = dense<2> : vector<1xi64>} ins(%b, %bk : memref<1x4x9xf32>, memref<4x3xf32>) outs(%bo : memref<1x4x4xf32>)
  linalg.depthwise_conv_1d_nwc_wcm ins(%c, %ck : memref<1x9x4xf32>, memref<3x4x2xf32>) outs(%co : memref<1x7x4x2xf32>)
  %1 = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%d, %dk : tensor<2x8x8x3xf32>, tensor<3x3x3xf32>) outs(%do : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  %2 = linalg.depthwise_conv_2d_nchw_chw ins(%e, %ek : tensor<2x3x8x8xf32>, tensor<3x3x3xf32>) outs(%eo : tensor<2x3x6x6xf32>) -> tensor<2x3x6x6xf32>
  linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<2> : tensor<2xi64>} ins(%f, %fk : memref<2x8x8x3xf32>, memref<3x3x3x2xf32>) outs(%fo : memref<2x4x4x3x2xf32>)
  return %0 : tensor<1x7x4xf32>
}

func.func @depthwise_more(%a: memref<1x8x8x4xi8>, %ak: memref<3x3x4xi8>, %ao: memref<1x6x6x4xi32>, %z: i32,
                          %m: memref<3x3x4x2xi8>, %mo: memref<1x6x6x4x2xi32>,
                          %v: tensor<1x5x6x7x2xf32>, %vk: tensor<2x2x2x2xf32>, %vo: tensor<1x4x5x6x2xf32>,
                          %w: tensor<1x2x5x6x7xf32>, %wk: tensor<2x2x2x2xf32>, %wo: tensor<1x2x4x5x6xf32>,
                          %x: memref<1x5x5x5x2xf32>, %xk: memref<2x2x2x2x3xf32>, %xo: memref<1x2x2x2x2x3xf32>) -> tensor<1x2x4x5x6xf32> {
  linalg.depthwise_conv_2d_nhwc_hwc_q ins(%a, %ak, %z, %z : memref<1x8x8x4xi8>, memref<3x3x4xi8>, i32, i32) outs(%ao : memref<1x6x6x4xi32>)
  linalg.depthwise_conv_2d_nhwc_hwcm_q ins(%a, %m, %z, %z : memref<1x8x8x4xi8>, memref<3x3x4x2xi8>, i32, i32) outs(%mo : memref<1x6x6x4x2xi32>)
  %0 = linalg.depthwise_conv_3d_ndhwc_dhwc ins(%v, %vk : tensor<1x5x6x7x2xf32>, tensor<2x2x2x2xf32>) outs(%vo : tensor<1x4x5x6x2xf32>) -> tensor<1x4x5x6x2xf32>
  %1 = linalg.depthwise_conv_3d_ncdhw_cdhw ins(%w, %wk : tensor<1x2x5x6x7xf32>, tensor<2x2x2x2xf32>) outs(%wo : tensor<1x2x4x5x6xf32>) -> tensor<1x2x4x5x6xf32>
  linalg.depthwise_conv_3d_ndhwc_dhwcm {strides = dense<[3, 3, 3]> : tensor<3xi64>}
    ins(%x, %xk : memref<1x5x5x5x2xf32>, memref<2x2x2x2x3xf32>) outs(%xo : memref<1x2x2x2x2x3xf32>)
  return %1 : tensor<1x2x4x5x6xf32>
}

// The filter of a pooling only shapes the window; the body reduces the
// init with the input cast to the init's type (unsigned for *_unsigned).
func.func @pooling_2d(%f: memref<1x6x6x2xf32>, %w: memref<3x3xf32>, %o: memref<1x4x4x2xf32>,
                      %i: memref<1x6x6x2xi8>, %oi: memref<1x4x4x2xi32>,
                      %n: tensor<1x2x7x7xf16>, %nw: tensor<3x3xf32>, %no: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  linalg.pooling_nhwc_sum ins(%f, %w : memref<1x6x6x2xf32>, memref<3x3xf32>) outs(%o : memref<1x4x4x2xf32>)
  linalg.pooling_nhwc_max ins(%f, %w : memref<1x6x6x2xf32>, memref<3x3xf32>) outs(%o : memref<1x4x4x2xf32>)
  linalg.pooling_nhwc_min ins(%i, %w : memref<1x6x6x2xi8>, memref<3x3xf32>) outs(%oi : memref<1x4x4x2xi32>)
  linalg.pooling_nhwc_max_unsigned ins(%i, %w : memref<1x6x6x2xi8>, memref<3x3xf32>) outs(%oi : memref<1x4x4x2xi32>)
  linalg.pooling_nhwc_min_unsigned ins(%i, %w : memref<1x6x6x2xi8>, memref<3x3xf32>) outs(%oi : memref<1x4x4x2xi32>)
  %0 = linalg.pooling_nchw_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
         ins(%n, %nw : tensor<1x2x7x7xf16>, tensor<3x3xf32>) outs(%no : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %1 = linalg.pooling_nchw_max ins(%n, %nw : tensor<1x2x7x7xf16>, tensor<3x3xf32>) outs(%0 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

func.func @pooling_1d_3d(%a: tensor<2x9x3xi16>, %w: tensor<4xi16>, %o: tensor<2x6x3xi64>,
                         %b: memref<2x3x9xf32>, %bw: memref<4xf32>, %bo: memref<2x3x6xf32>,
                         %c: memref<1x4x5x6x2xf32>, %cw: memref<2x2x2xf32>, %co: memref<1x3x4x5x2xf32>) -> tensor<2x6x3xi64> {
  %0 = linalg.pooling_nwc_sum ins(%a, %w : tensor<2x9x3xi16>, tensor<4xi16>) outs(%o : tensor<2x6x3xi64>) -> tensor<2x6x3xi64>
  %1 = linalg.pooling_nwc_max ins(%a, %w : tensor<2x9x3xi16>, tensor<4xi16>) outs(%0 : tensor<2x6x3xi64>) -> tensor<2x6x3xi64>
  %2 = linalg.pooling_nwc_min ins(%a, %w : tensor<2x9x3xi16>, tensor<4xi16>) outs(%1 : tensor<2x6x3xi64>) -> tensor<2x6x3xi64>
  %3 = linalg.pooling_nwc_max_unsigned ins(%a, %w : tensor<2x9x3xi16>, tensor<4xi16>) outs(%2 : tensor<2x6x3xi64>) -> tensor<2x6x3xi64>
  %4 = linalg.pooling_nwc_min_unsigned {dilations = dense<1> : tensor<1xi64>} ins(%a, %w : tensor<2x9x3xi16>, tensor<4xi16>) outs(%3 : tensor<2x6x3xi64>) -> tensor<2x6x3xi64>
  linalg.pooling_ncw_sum ins(%b, %bw : memref<2x3x9xf32>, memref<4xf32>) outs(%bo : memref<2x3x6xf32>)
  linalg.pooling_ncw_max ins(%b, %bw : memref<2x3x9xf32>, memref<4xf32>) outs(%bo : memref<2x3x6xf32>)
  linalg.pooling_ndhwc_sum ins(%c, %cw : memref<1x4x5x6x2xf32>, memref<2x2x2xf32>) outs(%co : memref<1x3x4x5x2xf32>)
  linalg.pooling_ndhwc_max ins(%c, %cw : memref<1x4x5x6x2xf32>, memref<2x2x2xf32>) outs(%co : memref<1x3x4x5x2xf32>)
  linalg.pooling_ndhwc_min ins(%c, %cw : memref<1x4x5x6x2xf32>, memref<2x2x2xf32>) outs(%co : memref<1x3x4x5x2xf32>)
  return %4 : tensor<2x6x3xi64>
}

// Contractions with fixed maps, the quantized matmuls, and the ops whose
// maps are a property (linalg.contract, linalg.batch_reduce_matmul).
func.func @contractions(%m: memref<4x6xf32>, %x: memref<6xf32>, %y: memref<4xf32>,
                        %bm: tensor<3x4x6xi8>, %bx: tensor<3x6xi8>, %by: tensor<3x4xi32>,
                        %bv: tensor<3x4xi8>, %bw: tensor<3x6xi32>,
                        %d: memref<?xf16>, %s: memref<f32>,
                        %l4: tensor<2x5x8x1xf32>, %r4: tensor<3x5x4x1xf32>, %o4: tensor<2x3x8x4xf32>,
                        %l5: memref<2x2x5x8x1xbf16>, %r5: memref<2x3x5x4x1xbf16>, %o5: memref<2x2x3x8x4xf32>) -> tensor<3x6xi32> {
  linalg.matvec ins(%m, %x : memref<4x6xf32>, memref<6xf32>) outs(%y : memref<4xf32>)
  linalg.vecmat ins(%y, %m : memref<4xf32>, memref<4x6xf32>) outs(%x : memref<6xf32>)
  %0 = linalg.batch_matvec ins(%bm, %bx : tensor<3x4x6xi8>, tensor<3x6xi8>) outs(%by : tensor<3x4xi32>) -> tensor<3x4xi32>
  %1 = linalg.batch_vecmat ins(%bv, %bm : tensor<3x4xi8>, tensor<3x4x6xi8>) outs(%bw : tensor<3x6xi32>) -> tensor<3x6xi32>
  linalg.dot ins(%d, %d : memref<?xf16>, memref<?xf16>) outs(%s : memref<f32>)
  %2 = linalg.mmt4d ins(%l4, %r4 : tensor<2x5x8x1xf32>, tensor<3x5x4x1xf32>) outs(%o4 : tensor<2x3x8x4xf32>) -> tensor<2x3x8x4xf32>
  linalg.batch_mmt4d ins(%l5, %r5 : memref<2x2x5x8x1xbf16>, memref<2x3x5x4x1xbf16>) outs(%o5 : memref<2x2x3x8x4xf32>)
  return %1 : tensor<3x6xi32>
}

func.func @quantized_matmuls(%a: tensor<4x6xi8>, %b: tensor<6x5xi8>, %za: i32, %zb: i8, %c: tensor<4x5xi32>,
                             %ba: memref<2x4x6xi8>, %bb: memref<2x6x5xi8>, %bc: memref<2x4x5xi32>) -> tensor<4x5xi32> {
  %0 = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x6xi8>, tensor<6x5xi8>, i32, i8) outs(%c : tensor<4x5xi32>) -> tensor<4x5xi32>
  linalg.quantized_batch_matmul ins(%ba, %bb, %za, %za : memref<2x4x6xi8>, memref<2x6x5xi8>, i32, i32) outs(%bc : memref<2x4x5xi32>)
  return %0 : tensor<4x5xi32>
}

#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bkn = affine_map<(b, m, n, k) -> (b, k, n)>
#bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#mn = affine_map<(b, m, n, k) -> (m, n)>
func.func @reduce_and_contract(%a: memref<3x4x5xf32>, %b: memref<3x5x6xf32>, %bt: memref<3x6x5xf32>, %c: memref<4x6xf32>,
                               %ta: tensor<3x4x5xi8>, %tb: tensor<3x5x6xi8>, %tc: tensor<4x6xi32>) -> tensor<4x6xi32> {
  linalg.batch_reduce_matmul ins(%a, %b : memref<3x4x5xf32>, memref<3x5x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.batch_reduce_matmul indexing_maps = [#bmk, #bnk, #mn] ins(%a, %bt : memref<3x4x5xf32>, memref<3x6x5xf32>) outs(%c : memref<4x6xf32>)
  %0 = linalg.batch_reduce_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ta, %tb : tensor<3x4x5xi8>, tensor<3x5x6xi8>) outs(%tc : tensor<4x6xi32>) -> tensor<4x6xi32>
  // A contraction over b and k: the same maps, spelled as a contract.
  linalg.contract indexing_maps = [#bmk, #bkn, #mn] ins(%a, %b : memref<3x4x5xf32>, memref<3x5x6xf32>) outs(%c : memref<4x6xf32>)
  %1 = linalg.contract indexing_maps = [#bmk, #bkn, #mn] {cast = #linalg.type_fn<cast_unsigned>}
         ins(%ta, %tb : tensor<3x4x5xi8>, tensor<3x5x6xi8>) outs(%0 : tensor<4x6xi32>) -> tensor<4x6xi32>
  return %1 : tensor<4x6xi32>
}

// Booleans add with `ori` and multiply with `andi`; discardable attributes
// are kept, written before or after the operands.
func.func @bools_and_attrs(%p: memref<4x6xi1>, %q: memref<6xi1>, %r: memref<4xi1>, %f: memref<2x6x6x2xf32>, %w: memref<2x2xf32>, %o: memref<2x5x5x2xf32>) {
  linalg.matvec {tag = "mv"} ins(%p, %q : memref<4x6xi1>, memref<6xi1>) outs(%r : memref<4xi1>)
  linalg.pooling_nhwc_sum ins(%f, %w : memref<2x6x6x2xf32>, memref<2x2xf32>) outs(%o : memref<2x5x5x2xf32>) {zz, aa = 1 : i32}
  return
}
