// scf.forall (normalized 'in' bounds, general '= to step' bounds, shared outputs,
// the implied empty in_parallel terminator) with tensor.parallel_insert_slice,
// as mlir-opt prints them.
func.func @f(%t: tensor<8x16xf32>, %n: index) -> tensor<8x16xf32> {
  %r = scf.forall (%i, %j) in (2, %n) shared_outs(%o = %t) -> (tensor<8x16xf32>) {
    %s = tensor.extract_slice %o[%i, %j] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, %j] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x16xf32>
    }
  }
  scf.forall (%i) = (1) to (%n) step (2) {
    %c = arith.constant 0 : index
  }
  scf.forall (%i) in (4) {
  }
  return %r : tensor<8x16xf32>
}
