// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s

// Six-digit exponent form when it round-trips, shortest decimal otherwise,
// and raw bits when neither works.
// CHECK: a = 0x419D6F3454000000 : f64
// CHECK-SAME: b = 1.23456776 : f32
// CHECK-SAME: c = 3.000000e-01 : f64
// CHECK-SAME: e = 6.550400e+04 : f16
// CHECK-SAME: f = 1.000980e-01 : bf16
// CHECK-SAME: i = 12345.678 : f64
// CHECK-SAME: j = 0x7F800000 : f32
// CHECK-SAME: k = -0.000000e+00 : f64
// CHECK-SAME: l = [1.500000e+00, 2.500000e+00 : f32]
"test.f"() {a = 123456789.0 : f64, b = 1.2345678 : f32, c = 0.3, e = 65504.0 : f16, f = 0.1 : bf16, i = 12345.678 : f64, j = 0x7F800000 : f32, k = -0.0, l = [1.5, 2.5 : f32]} : () -> ()
