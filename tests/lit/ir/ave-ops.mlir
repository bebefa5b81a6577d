// The `ave` (HIVMAVE) regbase vector ops: a scaled-ReLU kernel over a
// 64-lane tail, printed in custom form, also after a trip through the
// generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

#b32 = #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>

// CHECK-LABEL: func.func @scaled_relu
func.func @scaled_relu(%src: memref<100xf16, #hivm.address_space<ub>>, %dst: memref<100xf16, #hivm.address_space<ub>>, %n: index, %scale: f32) -> vector<64xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %no = arith.constant false
  // CHECK: %[[ALL:.*]] = ave.hir.pge <ALL> : vector<64xi1>
  %all = ave.hir.pge <ALL> : vector<64xi1>
  // CHECK: %[[TAIL:.*]]:2 = ave.hir.plt %{{.*}} : vector<64xi1>, index
  %tail, %rest = ave.hir.plt %n : vector<64xi1>, index
  // CHECK: ave.hir.pltm %{{.*}}, %{{.*}} : vector<64xi1>
  %win = ave.hir.pltm %c0, %n : vector<64xi1>
  // CHECK: %[[M:.*]] = ave.hir.preg.and <b16> %[[TAIL]]#0, %{{.*}}, %[[ALL]] : vector<64xi1>
  %m = ave.hir.preg.and <b16> %tail, %win, %all : vector<64xi1>
  // CHECK: %[[X:.*]] = ave.hir.vload <NORM> %{{.*}}[%{{.*}}] : memref<100xf16, #hivm.address_space<ub>> into vector<64xf16>
  %x = ave.hir.vload <NORM> %src[%c0] : memref<100xf16, #hivm.address_space<ub>> into vector<64xf16>
  // CHECK: %[[XF:.*]] = ave.hir.vextf %[[X]], <part_even>, %[[M]] : vector<64xf16>, vector<64xf32>, vector<64xi1>
  %xf = ave.hir.vextf %x, <part_even>, %m : vector<64xf16>, vector<64xf32>, vector<64xi1>
  // CHECK: %[[S:.*]] = ave.hir.vmuls %[[XF]], %{{.*}}, %[[M]] : vector<64xf32>, f32, vector<64xi1>
  %s = ave.hir.vmuls %xf, %scale, %m : vector<64xf32>, f32, vector<64xi1>
  // CHECK: %[[Z:.*]] = ave.hir.broadcast %{{.*}}, %[[M]] : f32, vector<64xi1> -> vector<64xf32>
  %z = ave.hir.broadcast %zero, %m : f32, vector<64xi1> -> vector<64xf32>
  // CHECK: %[[GT:.*]] = ave.hir.vcmp <GT> %[[S]], %[[Z]], %[[M]] : vector<64xf32>, vector<64xi1> -> vector<64xi1>
  %gt = ave.hir.vcmp <GT> %s, %z, %m : vector<64xf32>, vector<64xi1> -> vector<64xi1>
  // CHECK: %[[R:.*]] = ave.hir.vsel %[[GT]], %[[S]], %[[Z]] : vector<64xi1>, vector<64xf32>
  %r = ave.hir.vsel %gt, %s, %z : vector<64xi1>, vector<64xf32>
  // CHECK: ave.hir.vadd %[[R]], %[[R]], %[[M]] : vector<64xf32>, vector<64xi1>
  %d = ave.hir.vadd %r, %r, %m : vector<64xf32>, vector<64xi1>
  // CHECK: ave.hir.vexp %{{.*}}, %[[M]] : vector<64xf32>, vector<64xi1>
  %e = ave.hir.vexp %d, %m : vector<64xf32>, vector<64xi1>
  // CHECK: %[[H:.*]] = ave.hir.vtruncf %{{.*}}, <rint>, false, <part_even>, %[[M]] : vector<64xf32>, vector<64xf16>, vector<64xi1>
  %h = ave.hir.vtruncf %e, <rint>, false, <part_even>, %m : vector<64xf32>, vector<64xf16>, vector<64xi1>
  // CHECK: ave.hir.masked_store <NORM_B16> %{{.*}}[%{{.*}}], %[[M]], %[[H]] : memref<100xf16, #hivm.address_space<ub>>, vector<64xi1>, vector<64xf16>
  ave.hir.masked_store <NORM_B16> %dst[%c0], %m, %h : memref<100xf16, #hivm.address_space<ub>>, vector<64xi1>, vector<64xf16>
  // CHECK: %[[IOTA:.*]] = ave.hir.vci %{{.*}}, <INCREASE> : i32, vector<64xi32>
  %i = ave.hir.vci %one, <INCREASE> : i32, vector<64xi32>
  // CHECK: %[[SH:.*]] = ave.hir.vshls %[[IOTA]], %c1_i32, %[[M]], %false : vector<64xi32>, i32, vector<64xi1>
  %sh = ave.hir.vshls %i, %one, %m, %no : vector<64xi32>, i32, vector<64xi1>
  // CHECK: %[[PROD:.*]]:2 = ave.hir.mull %[[SH]], %[[IOTA]], %[[M]] : vector<64xi32>, vector<64xi1>
  %lo, %hi = ave.hir.mull %sh, %i, %m {cast = #hivm.cast<cast_signed>} : vector<64xi32>, vector<64xi1>
  // CHECK: ave.hir.vintlv %[[PROD]]#0, %[[PROD]]#1 {layout_change = #ave<layout_change DENSE>} : vector<64xi32>, vector<64xi32>
  %a, %b = ave.hir.vintlv %lo, %hi {layout_change = #ave<layout_change DENSE>} : vector<64xi32>, vector<64xi32>
  // CHECK: ave.hir.vector_broadcast %{{.*}}, %[[M]], true : vector<64xi32>, vector<64xi1> -> vector<64xi32>
  %bc = ave.hir.vector_broadcast %a, %m, true : vector<64xi32>, vector<64xi1> -> vector<64xi32>
  // CHECK: ave.hir.reduction <umax>, %{{.*}}, %[[M]] : vector<64xi32>, vector<64xi1> -> vector<64xi32>
  %red = ave.hir.reduction <umax>, %bc, %m : vector<64xi32>, vector<64xi1> -> vector<64xi32>
  return %red : vector<64xi32>
}

// Vectors may carry an `#ave.vector_layout` after the element type.
// CHECK-LABEL: func.func @with_layout
// CHECK: ave.hir.pge <VL16> {functionType = #ave.func_dist_type<pb32>} : vector<64xi1, #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>>
// CHECK: ave.hir.vtrc %{{.*}}, <floor>, %{{.*}} : vector<64xf32, #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>>, vector<64xi1, #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>>, vector<64xf32, #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>>
// CHECK: ave.hir.vector.layout_cast %{{.*}} : vector<64xf32, #ave.vector_layout<{mem = #ave.vec_mem_type<b32>}>> -> vector<64xf32>
func.func @with_layout(%v: vector<64xf32, #b32>) -> vector<64xf32> {
  %m = ave.hir.pge <VL16> {functionType = #ave.func_dist_type<pb32>} : vector<64xi1, #b32>
  %t = ave.hir.vtrc %v, <floor>, %m : vector<64xf32, #b32>, vector<64xi1, #b32>, vector<64xf32, #b32>
  %c = ave.hir.vector.layout_cast %t : vector<64xf32, #b32> -> vector<64xf32>
  return %c : vector<64xf32>
}
