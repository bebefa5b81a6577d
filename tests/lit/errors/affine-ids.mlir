// Dimension and symbol names of an affine map or set are one namespace: a
// repeated name is rejected at its second spelling, as mlir-opt does (this
// file gives the same diagnostics with mlir-opt 22).
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

#m = affine_map<(d0, d0) -> (d0)>

// -----

#m = affine_map<(d0)[s0, s0] -> (d0 + s0)>

// -----

#m = affine_map<(x, y)[x] -> (x + y)>

// -----

#s = affine_set<(d0)[d0] : (d0 >= 0)>

// CHECK: {{.*}}affine-ids.mlir:6:22: error: redefinition of identifier 'd0'
// CHECK: {{.*}}affine-ids.mlir:10:26: error: redefinition of identifier 's0'
// CHECK: {{.*}}affine-ids.mlir:14:24: error: redefinition of identifier 'x'
// CHECK: {{.*}}affine-ids.mlir:18:22: error: redefinition of identifier 'd0'
