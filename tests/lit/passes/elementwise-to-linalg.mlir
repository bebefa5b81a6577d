// convert-elementwise-to-linalg: arith/math ops on ranked tensors become
// linalg.generic (identity maps for tensors, an empty map for scalars, all
// loops parallel, the op itself as the body); the out is the first operand
// of the result's type, else a tensor.empty sized like the first operand.
// RUN: hivm-opt %s --convert-elementwise-to-linalg -split-input-file | FileCheck %s

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @binary_and_scalar
// CHECK: %[[ADD:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:   %[[S:.+]] = arith.addf %[[A]], %[[B]] fastmath<fast> : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<4x8xf32>
// CHECK: %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}} ins(%[[ADD]] : tensor<4x8xf32>) outs(%[[ADD]] : tensor<4x8xf32>)
// CHECK: math.exp %{{.+}} : f32
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg2, %[[EXP]], %arg0 : i1, tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[EXP]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[C:.+]]: i1, %[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:   arith.select %[[C]], %[[X]], %[[Y]] : f32
func.func @binary_and_scalar(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %0 = arith.addf %a, %b fastmath<fast> : tensor<4x8xf32>
  %1 = math.exp %0 : tensor<4x8xf32>
  %2 = arith.select %c, %1, %a : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A result type no operand has: a fresh tensor.empty, with tensor.dim for
// dynamic sizes; scalar arith stays as it is.
// CHECK-LABEL: func.func @new_out
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[DIM:.+]] = tensor.dim %arg0, %[[C1]] : tensor<4x?xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.empty(%[[DIM]]) : tensor<4x?xi1>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x?xf32>, tensor<4x?xf32>) outs(%[[E]] : tensor<4x?xi1>)
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK: linalg.yield %{{.+}} : i1
// CHECK: arith.addi %arg2, %arg2 : i32
func.func @new_out(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>, %i: i32) -> (tensor<4x?xi1>, i32) {
  %0 = arith.cmpf olt, %a, %b : tensor<4x?xf32>
  %1 = arith.addi %i, %i : i32
  return %0, %1 : tensor<4x?xi1>, i32
}
