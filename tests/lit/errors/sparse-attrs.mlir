// Malformed builtin sparse elements attributes: bad index shapes, indices
// outside the type's shape, non-1-d values, non-static or non-shaped types,
// and syntax errors. mlir-opt 22 gives the same diagnostics for this file.
// RUN: not hivm-opt %s -allow-unregistered-dialect -split-input-file 2>&1 | FileCheck %s

"t.a"() {v = sparse<[[0, 2]], [1]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0]], [1]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1, 2]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [[1]]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[1, -1], [1, 2]> : tensor<2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<4, [1]> : tensor<4x4xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[[0]]], [1]> : tensor<1xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1]> : tensor<?x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1]> : tensor<*xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1]> : i32} : () -> ()
// -----
"t.a"() {v = sparse<[[1.0, 0]], [1]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [true]> : tensor<2x2xf32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]] [1]> : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1] : tensor<2x2xi32>} : () -> ()
// -----
"t.a"() {v = sparse<[[0, 0]], [1]>} : () -> ()
// -----
"t.a"() {v = sparse [[0]]} : () -> ()

// CHECK: {{.*}}sparse-attrs.mlir:6:14: error: sparse index #0 is not contained within the value shape, with index=[0, 2], and type='tensor<2x2xi32>'
// CHECK: {{.*}}sparse-attrs.mlir:8:14: error: expected shape ([2, 2]); inferred shape of indices literal ([1, 1]); inferred shape of values literal ([1])
// CHECK: {{.*}}sparse-attrs.mlir:10:14: error: expected shape ([2, 2]); inferred shape of indices literal ([1, 2]); inferred shape of values literal ([2])
// CHECK: {{.*}}sparse-attrs.mlir:12:14: error: expected 1-d tensor for sparse element values
// CHECK: {{.*}}sparse-attrs.mlir:14:14: error: sparse index #1 is not contained within the value shape, with index=[18446744073709551615], and type='tensor<2xi32>'
// CHECK: {{.*}}sparse-attrs.mlir:16:14: error: sparse index #0 is not contained within the value shape, with index=[4, 4], and type='tensor<4x4xi32>'
// CHECK: {{.*}}sparse-attrs.mlir:18:14: error: expected shape ([1]); inferred shape of indices literal ([1, 1, 1]); inferred shape of values literal ([1])
// CHECK: {{.*}}sparse-attrs.mlir:20:14: error: elements literal type must have static shape
// CHECK: {{.*}}sparse-attrs.mlir:22:14: error: elements literal type must have static shape
// CHECK: {{.*}}sparse-attrs.mlir:24:14: error: elements literal must be a shaped type
// CHECK: {{.*}}sparse-attrs.mlir:26:23: error: expected integer elements, but parsed floating-point
// CHECK: {{.*}}sparse-attrs.mlir:28:32: error: expected floating point literal
// CHECK: {{.*}}sparse-attrs.mlir:30:29: error: expected ','
// CHECK: {{.*}}sparse-attrs.mlir:32:34: error: expected '>'
// CHECK: {{.*}}sparse-attrs.mlir:34:35: error: expected ':'
// CHECK: {{.*}}sparse-attrs.mlir:36:20: error: Expected '<' after 'sparse'
