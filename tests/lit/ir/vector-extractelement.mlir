// vector.extractelement, which upstream's LLVM 19 still has (MLIR 22 spells
// it vector.extract): 0-D without a position, 1-D with one.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: %0 = vector.extractelement %arg0[] : vector<i32>
// CHECK: %1 = vector.extractelement %arg1[%arg2 : index] : vector<16xf32>
// GEN: "vector.extractelement"(%arg0) : (vector<i32>) -> i32
// GEN: "vector.extractelement"(%arg1, %arg2) : (vector<16xf32>, index) -> f32
func.func @e(%v: vector<i32>, %w: vector<16xf32>, %i: index) -> f32 {
  %0 = vector.extractelement %v[] : vector<i32>
  %1 = vector.extractelement %w[%i : index] : vector<16xf32>
  return %1 : f32
}
