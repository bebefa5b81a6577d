// bishengir's LLVM adds `concat` and `gather` to linalg's iterator kinds;
// they round-trip like MLIR's own two.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: iterator_types = ["parallel", "gather", "concat"]
// GENERIC: iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<gather>, #linalg.iterator_type<concat>]
#id = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @pick(%src: tensor<4x8xf32>, %init: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.generic {indexing_maps = [#id, #out], iterator_types = ["parallel", "gather", "concat"]} ins(%src : tensor<4x8xf32>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    linalg.yield %in : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
