// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s

// Dictionaries print sorted; `: i64` is elided only directly inside arrays.
// CHECK: "test.attrs"() {a = [1, 2 : i32], b = {c = 3 : i64}, flag, s = "h\0A\22i\01", z = 1 : i64}
"test.attrs"() {z = 1, a = [1, 2 : i32], b = {c = 3}, s = "h\n\"i\01", flag} : () -> ()

// CHECK: "test.more"() {arr = array<i32: 1, -2>, bools = array<i1: true, false>, d = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>, e = array<f32>, splat = dense<1.000000e+00> : tensor<3xf32>, sym = @a::@b, t = tuple<i32, f32>, ty = memref<?x4xf32, strided<[?, 1], offset: ?>, 3>}
"test.more"() {arr = array<i32: 1, -2>, bools = array<i1: true, false>, d = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, e = array<f32>, splat = dense<[1.0, 1.0, 1.0]> : tensor<3xf32>, sym = @a::@b, t = tuple<i32, f32>, ty = memref<?x4xf32, strided<[?, 1], offset: ?>, 3>} : () -> ()

// Hex integers are bit patterns; unsigned types print unsigned.
// CHECK: "test.ints"() {a = -1 : i8, b = 255 : ui8, c = -5 : si16, d = true, e = 0 : index}
"test.ints"() {a = 0xFF : i8, b = 255 : ui8, c = -5 : si16, d = true, e = 0 : index} : () -> ()

// Opaque dialect attributes and types are kept verbatim.
// CHECK: "test.opaque"() {a = #foo.bar<"x" [1]>, b = !foo.t<x>, c = #foo<"y">} : () -> ()
"test.opaque"() {a = #foo.bar<"x" [1]>, b = !foo.t<x>, c = #foo<"y">} : () -> ()
