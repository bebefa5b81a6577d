func.func @f(%v: vector<4xf32>, %t: tensor<4xi32>, %i: i32) {
  gpu.barrier
  vector.print %v : vector<4xf32>
  vector.print %i : i32 punctuation <comma>
  vector.print punctuation <newline>
  vector.print str "hello\n"
  %p = ub.poison : i32
  %q = ub.poison : vector<4xf32>
  %b = tensor.bitcast %t : tensor<4xi32> to tensor<4xui32>
  return
}
func.func @shapes(%t: tensor<?x4096xf32>) -> tensor<2xindex> {
  %0 = shape.shape_of %t : tensor<?x4096xf32> -> tensor<2xindex>
  %p = ub.poison : tensor<?x?xf16>
  return %0 : tensor<2xindex>
}
