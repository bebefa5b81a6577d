// The rest of hfusion's ops whose syntax is all declarative, and its
// load/store/bitcast/elemwise_ternary named ops; each reads back from its
// generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @ops
// CHECK: hfusion.print " x = " {hex = false} %arg0 : tensor<8xf32>
// CHECK: hfusion.assert "bad" %arg3 : i1
// CHECK: hfusion.barrier
// CHECK: %low, %high = hfusion.mulext %arg2, %arg2 : i32
// CHECK: hfusion.flip %arg0 : tensor<8xf32> flip_axis = 0 -> tensor<8xf32>
// CHECK: hfusion.isinf %arg0 : tensor<8xf32> -> tensor<8xi1>
// CHECK: hfusion.cummax %arg0 : tensor<8xf32> cum_dims = [0] reverse = false -> tensor<8xf32>
// CHECK: hfusion.cummin %arg0 {propagate_nan = false} : tensor<8xf32> cum_dims = [0] reverse = true -> tensor<8xf32>
// CHECK: hfusion.hypot %arg0, %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
// CHECK: hfusion.atomic_xchg ins(%arg4 : memref<8xf32>) outs(%arg4 : memref<8xf32>) mask(%arg5 : memref<8xi1>)
// CHECK: hfusion.atomic_rmw ins(%arg4 : memref<8xf32>) outs(%arg4 : memref<8xf32>) atomic_kind = <add>
// CHECK: hfusion.sort ins(%arg0 : tensor<8xf32>) descending = true sort_axis = 0 -> tensor<8xf32>
// CHECK: hfusion.load ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK: hfusion.store {atomic_kind = #hfusion.atomic_kind<add>} ins(%arg0 : tensor<8xf32>) outs(%arg4 : memref<8xf32>)
// CHECK: hfusion.bitcast ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<8xi32>) -> tensor<8xi32>
// CHECK: hfusion.elemwise_ternary ins(%arg0, %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
// GEN: "hfusion.mulext"(%{{.*}}, %{{.*}}) : (i32, i32) -> (i32, i32)
// GEN: "hfusion.cummax"(%{{.*}}) <{cum_dims = array<i64: 0>, propagate_nan = true, reverse = false}>
// GEN: "hfusion.load"
// GEN-NEXT: ^bb0(%[[IN:arg[0-9]+]]: f32, %{{.*}}: f32):
// GEN-NEXT: "linalg.yield"(%[[IN]]) : (f32) -> ()
// GEN: "hfusion.bitcast"
// GEN: "arith.bitcast"(%{{.*}}) : (f32) -> i32
func.func @ops(%t: tensor<8xf32>, %m: tensor<8xi1>, %i: i32, %c: i1, %g: memref<8xf32>, %k: memref<8xi1>) {
  hfusion.print " x = " {hex = false} %t : tensor<8xf32>
  hfusion.assert "bad" %c : i1
  hfusion.barrier
  %lo, %hi = hfusion.mulext %i, %i : i32
  %0 = hfusion.flip %t : tensor<8xf32> flip_axis = 0 -> tensor<8xf32>
  %1 = hfusion.isinf %t : tensor<8xf32> -> tensor<8xi1>
  %2 = hfusion.cummax %t : tensor<8xf32> cum_dims = [0] reverse = false -> tensor<8xf32>
  %3 = hfusion.cummin %t {propagate_nan = false} : tensor<8xf32> cum_dims = [0] reverse = true -> tensor<8xf32>
  %4 = hfusion.hypot %t, %t, %t : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  hfusion.atomic_xchg ins(%g : memref<8xf32>) outs(%g : memref<8xf32>) mask(%k : memref<8xi1>)
  hfusion.atomic_rmw ins(%g : memref<8xf32>) outs(%g : memref<8xf32>) atomic_kind = <add>
  %5 = hfusion.sort ins(%t : tensor<8xf32>) descending = true sort_axis = 0 -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %6 = hfusion.load ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  hfusion.store {atomic_kind = #hfusion.atomic_kind<add>} ins(%t : tensor<8xf32>) outs(%g : memref<8xf32>)
  %ei = tensor.empty() : tensor<8xi32>
  %7 = hfusion.bitcast ins(%t : tensor<8xf32>) outs(%ei : tensor<8xi32>) -> tensor<8xi32>
  %8 = hfusion.elemwise_ternary ins(%t, %t, %t : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return
}
// GEN: "math.fma"
