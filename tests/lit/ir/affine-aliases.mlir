// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s

// Maps are hoisted to `#map`, `#map1`, ... in order of first use, then sets.
// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1)[s0] -> (d1 + s0, d0 * 2 + 3)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0 floordiv 2, d1 mod 4, -d0, d0 - d1, (d0 + d1) * 3)>
// CHECK-NEXT: #map3 = affine_map<(d0) -> (d0 + 3)>
// CHECK-NEXT: #set = affine_set<(d0) : (d0 - 2 >= 0, d0 == 0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   "test.maps"() {a = #map, b = #map1, c = [#set], d = #map2, m = memref<4xf32, #map3>} : () -> ()
#m = affine_map<(d0, d1)[s0] -> (d1 + s0, 3 + d0 * 2)>
"test.maps"() {a = affine_map<(i) -> (i)>, b = #m, c = [affine_set<(d0) : (d0 >= 2, d0 == 0)>], d = affine_map<(d0, d1) -> (d0 floordiv 2, d1 mod 4, -d0, d0 - d1, (d0 + d1) * 3)>, m = memref<4xf32, affine_map<(d0) -> (d0 + 3)>>} : () -> ()

// Identity layouts disappear.
// CHECK: "test.id"() {m = memref<4x4xf32>} : () -> ()
"test.id"() {m = memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>} : () -> ()
