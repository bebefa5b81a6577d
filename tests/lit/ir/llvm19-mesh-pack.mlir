// Upstream's LLVM 19 spellings its tests still write: the mesh dialect
// (MLIR 22's shard), tensor.pack / tensor.unpack (MLIR 22's linalg.pack /
// linalg.unpack, which LLVM 19 let pack into a larger shape than needed),
// and hivm.hir.vcmp's signedness written `is_signed = false` (read, and
// printed in upstream's current `is_signed : false`).
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s -mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: mesh.mesh @cluster(shape = 8x?)
// GENERIC: "mesh.mesh"() <{shape = array<i64: 8, -9223372036854775808>, sym_name = "cluster"}>
mesh.mesh @cluster(shape = 8x?)

// CHECK-LABEL: func.func @sum_rows
func.func @sum_rows(%x: tensor<64x?xf32>) -> tensor<64x?xf32> {
  // CHECK: %all_reduce = mesh.all_reduce %arg0 on @cluster mesh_axes = [1] : tensor<64x?xf32> -> tensor<64x?xf32>
  // GENERIC: "mesh.all_reduce"(%{{.*}}) <{mesh = @cluster, mesh_axes = array<i16: 1>, reduction = #mesh<partial sum>}>
  %0 = mesh.all_reduce %x on @cluster mesh_axes = [1] : tensor<64x?xf32> -> tensor<64x?xf32>
  // CHECK: mesh.all_reduce %all_reduce on @cluster reduction =  min : tensor<64x?xf32> -> tensor<64x?xf32>
  %1 = mesh.all_reduce %0 on @cluster reduction = min : tensor<64x?xf32> -> tensor<64x?xf32>
  return %1 : tensor<64x?xf32>
}

// CHECK-LABEL: func.func @tiles
func.func @tiles(%a: tensor<30x50xf32>, %room: tensor<8x8x8x8xf32>, %pad: f32, %out: tensor<30x50xf32>) -> tensor<30x50xf32> {
  // 50/8 and 30/8 round up to 7 and 4; LLVM 19 accepts the larger 8x8.
  // CHECK: %pack = tensor.pack %arg0 padding_value(%arg2 : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %arg1 : tensor<30x50xf32> -> tensor<8x8x8x8xf32>
  // GENERIC: "tensor.pack"(%{{.*}}, %{{.*}}, %{{.*}}) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 8, 8>}>
  %p = tensor.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
    inner_tiles = [8, 8] into %room : tensor<30x50xf32> -> tensor<8x8x8x8xf32>
  // CHECK: %unpack = tensor.unpack %pack outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %arg3 : tensor<8x8x8x8xf32> -> tensor<30x50xf32>
  %u = tensor.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 8]
    into %out : tensor<8x8x8x8xf32> -> tensor<30x50xf32>
  return %u : tensor<30x50xf32>
}

// CHECK-LABEL: func.func @unsigned_compare
func.func @unsigned_compare(%a: tensor<16xi8>, %b: tensor<16xi8>) -> tensor<16xi1> {
  %d = tensor.empty() : tensor<16xi1>
  // CHECK: hivm.hir.vcmp ins(%arg0, %arg1 : tensor<16xi8>, tensor<16xi8>) outs(%{{.*}} : tensor<16xi1>) compare_mode = <ge> is_signed : false -> tensor<16xi1>
  %0 = hivm.hir.vcmp ins(%a, %b : tensor<16xi8>, tensor<16xi8>) outs(%d : tensor<16xi1>) compare_mode = <ge> is_signed = false -> tensor<16xi1>
  // The default (signed) is left out.
  // CHECK: hivm.hir.vcmp ins(%arg0, %arg1 : tensor<16xi8>, tensor<16xi8>) outs(%{{.*}} : tensor<16xi1>) -> tensor<16xi1>
  %1 = hivm.hir.vcmp ins(%a, %b : tensor<16xi8>, tensor<16xi8>) outs(%d : tensor<16xi1>) is_signed : true -> tensor<16xi1>
  return %0 : tensor<16xi1>
}
