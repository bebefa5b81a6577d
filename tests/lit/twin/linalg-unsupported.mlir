// Structured ops the twin cannot run are located errors, never skipped.
// RUN: not hivm-run %s --entry no_loop_size --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not hivm-run %s --entry gather_iterator --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not hivm-run %s --entry out_of_bounds --arg zeros:4xf32 --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=OOB

// SIZE: linalg-unsupported.mlir:[[# @LINE + 3]]:3: error: 'linalg.generic': no operand gives the size of loop 1: not supported by the CPU twin yet
func.func @no_loop_size(%out: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : f32) outs(%out : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

// GATHER: linalg-unsupported.mlir:[[# @LINE + 2]]:3: error: 'linalg.generic' has a 'gather' iterator: not supported by the CPU twin yet
func.func @gather_iterator(%out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["gather"]} outs(%out : memref<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  }
  return
}

// A map reading past its operand: the point and the index are named.
// OOB: linalg-unsupported.mlir:[[# @LINE + 2]]:3: error: index [4] (at loop point [3]) is out of bounds of an operand of shape [4]
func.func @out_of_bounds(%in: memref<4xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  return
}
