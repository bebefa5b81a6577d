// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed relayout, sharding, NVVM and intrinsic-call ops. The linalg,
// shard, nvvm and llvm cases give the same diagnostics with mlir-opt 22; the
// tensor.pack and mesh cases are upstream's LLVM 19 ops, in its words.

func.func @zero_tile(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{invalid zero tile factor}}
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 0] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @repeated_position(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{invalid inner_dims_pos vector}}
  %0 = linalg.pack %s inner_dims_pos = [1, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @short_permutation(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{outer_dims_perm must be a permutation or empty}}
  %0 = linalg.pack %s outer_dims_perm = [1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @tile_count(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{tiling factors must equal the number of dimensions to tile}}
  %0 = linalg.pack %s inner_dims_pos = [0] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @packed_rank(%s: tensor<16x16xf32>, %d: tensor<2x2x8xf32>) -> tensor<2x2x8xf32> {
  // expected-error@+1 {{packed rank != (unpacked rank + num tiling factors), got 3 != 4}}
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8xf32>
  return %0 : tensor<2x2x8xf32>
}

// -----

func.func @tile_shape(%s: tensor<16x16xf32>, %d: tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32> {
  // expected-error@+1 {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type}}
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x4xf32>
  return %0 : tensor<2x2x8x4xf32>
}

// -----

func.func @larger_packed(%s: tensor<16x16xf32>, %d: tensor<3x2x8x8xf32>) -> tensor<3x2x8x8xf32> {
  // MLIR 22 wants the packed shape exactly.
  // expected-error@+1 {{expected 'tensor<2x2x8x8xf32>' for the packed domain value, got 'tensor<3x2x8x8xf32>'}}
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<3x2x8x8xf32>
  return %0 : tensor<3x2x8x8xf32>
}

// -----

func.func @partial_tiles(%s: tensor<15x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{'linalg.pack' op invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set}}
  %0 = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<15x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @padding_type(%s: tensor<15x16xf32>, %d: tensor<2x2x8x8xf32>, %p: f16) -> tensor<2x2x8x8xf32> {
  // expected-error@+1 {{'linalg.pack' op expected padding_value has 'f32' but got: 'f16'}}
  %0 = linalg.pack %s padding_value(%p : f16) inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<15x16xf32> -> tensor<2x2x8x8xf32>
  return %0 : tensor<2x2x8x8xf32>
}

// -----

func.func @constant_zero_tile(%p: tensor<2x?x8x?xf32>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0 : index
  // A tile given by a constant value counts as that constant.
  // expected-error@+1 {{invalid zero tile factor}}
  %0 = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, %zero] into %d : tensor<2x?x8x?xf32> -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

func.func @llvm19_too_small(%s: tensor<16x16xf32>, %d: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  // LLVM 19's tensor.pack takes a packed shape at least the inferred one.
  // expected-error@+1 {{the shape of output is not large enough to hold the packed data. Expected at least 'tensor<2x2x8x8xf32>', got 'tensor<1x2x8x8xf32>'}}
  %0 = tensor.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @missing_grid(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Undefined required grid symbol "h".}}
  %0 = shard.all_reduce %t on @h : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @axis_range(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{0-based grid axis index 2 is out of bounds. The referenced grid "g" is of rank 2.}}
  %0 = shard.all_reduce %t on @g grid_axes = [2] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @axis_twice(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Grid axes contains duplicate elements.}}
  %0 = shard.all_reduce %t on @g grid_axes = [0, 0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

shard.grid @g(shape = 2x2)
func.func @reduce_shape(%t: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'shard.all_reduce' op requires the same shape for all operands and results}}
  %0 = shard.all_reduce %t on @g : tensor<4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{'shard.grid' op dimension size of a grid is expected to be non-negative or dynamic}}
"shard.grid"() <{shape = array<i64: 2, -4>, sym_name = "g"}> : () -> ()

// -----

mesh.mesh @m(shape = 4)
func.func @mesh_axis(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{0-based mesh axis index 1 is out of bounds. The referenced mesh "m" is of rank 1.}}
  %0 = mesh.all_reduce %t on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

llvm.func @shuffle_struct(%m: i32, %v: f32) {
  // expected-error@+1 {{'nvvm.shfl.sync' op "return_value_and_is_valid" attribute must be specified when the return type is a struct type}}
  %0 = nvvm.shfl.sync bfly %m, %v, %m, %m : f32 -> !llvm.struct<(f32, i1)>
  llvm.return
}

// -----

llvm.func @shuffle_member(%m: i32, %v: f32) {
  // expected-error@+1 {{'nvvm.shfl.sync' op expected first element in the returned struct to be of type 'f32' but got 'i32' instead}}
  %0 = nvvm.shfl.sync idx %m, %v, %m, %m {return_value_and_is_valid} : f32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

llvm.func @shuffle_value(%m: i32, %v: f64) {
  // expected-error@+1 {{'nvvm.shfl.sync' op operand #1 must be 32-bit signless integer or 32-bit float, but got 'f64'}}
  %0 = nvvm.shfl.sync up %m, %v, %m, %m : f64 -> f64
  llvm.return
}

// -----

llvm.func @intrinsic_name(%x: f32) -> f32 {
  // expected-error@+1 {{'llvm.call_intrinsic' op intrinsic name must start with 'llvm.'}}
  %0 = llvm.call_intrinsic "nvvm.ex2"(%x) : (f32) -> f32
  llvm.return %0 : f32
}

// -----

llvm.func @intrinsic_results(%x: f32) {
  // expected-error@+1 {{custom op 'llvm.call_intrinsic' expected function with 0 or 1 result}}
  %0:2 = llvm.call_intrinsic "llvm.frexp.f32"(%x) : (f32) -> (f32, i32)
  llvm.return
}

// -----

llvm.func @bundle_tags(%x: f32) {
  // expected-error@+1 {{expected 1 operand bundle tags, but actually got 0}}
  "llvm.call_intrinsic"(%x) <{intrin = "llvm.donothing", op_bundle_sizes = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0>}> : (f32) -> ()
  llvm.return
}

// -----

llvm.func @unreachable_not_last() {
  // expected-error@+1 {{'llvm.unreachable' op must be the last operation in the parent block}}
  llvm.unreachable
  llvm.return
}
