// The symbol dialect: bounded symbolic sizes named after their symbol, an
// empty expression map left out, maps printed inline (never as aliases).
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK-NOT: #map
// CHECK: %s0 = symbol.symbolic_int @s0 {max_val = 64 : i64, min_val = 1 : i64} : index
// CHECK: %n = symbol.symbolic_int @n {max_val = 8 : i64, min_val = 2 : i64} : index
// CHECK: %prod = symbol.symbolic_int @prod [%s0, %n], affine_map<()[s0, s1] -> (s0 * s1)> {max_val = 512 : i64, min_val = 2 : i64} : index
// CHECK: symbol.bind_symbolic_shape %arg0, [%s0, %n], affine_map<()[s0, s1] -> (s0, 16, s1)> : memref<?x16x?xf16>
// CHECK: symbol.bind_symbolic_shape %arg1, [%prod], affine_map<()[s0] -> (s0)> {hint} : tensor<?xf32>
func.func @sizes(%m: memref<?x16x?xf16>, %t: tensor<?xf32>) {
  %a = symbol.symbolic_int @s0 [], affine_map<() -> ()> {min_val = 1 : i64, max_val = 64 : i64} : index
  %b = symbol.symbolic_int @n {max_val = 8 : i64, min_val = 2 : i64} : index
  %c = symbol.symbolic_int @prod [%a, %b], affine_map<()[s0, s1] -> (s0 * s1)> {max_val = 512 : i64, min_val = 2 : i64} : index
  symbol.bind_symbolic_shape %m, [%a, %b], affine_map<()[s0, s1] -> (s0, 16, s1)> : memref<?x16x?xf16>
  symbol.bind_symbolic_shape %t, [%c], affine_map<()[s0] -> (s0)> {hint} : tensor<?xf32>
  return
}
