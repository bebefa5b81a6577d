// The sharding dialect: device grids (static and dynamic sizes, attributes)
// and all_reduce over some of a grid's axes, with each reduction kind
// spelled, the default one left out, and a memref operand.
shard.grid @pair(shape = 2)
shard.grid @rack(shape = 4x?x2) {placement = "row"}

func.func @reduce(%t: tensor<16x?xf32>, %m: memref<8xi32>) -> tensor<16x?xf64> {
  %0 = shard.all_reduce %t on @rack grid_axes = [2, 0] : tensor<16x?xf32> -> tensor<16x?xf32>
  %1 = shard.all_reduce %0 on @rack grid_axes = [1] reduction = max : tensor<16x?xf32> -> tensor<16x?xf64>
  %2 = shard.all_reduce %t on @pair reduction = sum : tensor<16x?xf32> -> tensor<16x?xf32>
  %3 = shard.all_reduce %m on @pair grid_axes = [0] reduction = bitwise_xor {step = 3 : i64} : memref<8xi32> -> memref<8xi32>
  %4 = shard.all_reduce %t on @rack grid_axes = [] reduction = average : tensor<16x?xf32> -> tensor<16x?xf32>
  return %1 : tensor<16x?xf64>
}
