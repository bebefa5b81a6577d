// An iterator type that is not one (here "{") was kept and printed as an
// unparseable #linalg.iterator_type<{>; it is now rejected as mlir-opt does.
func.func @g(%m: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["{"]} outs(%m : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  }
  return
}
