// The HIVM stage computes what the hfusion stage did: kernels of named
// elementwise ops, compares, selects, casts, fills, broadcasts and
// reductions on buffers give the same numbers on the twin before and after
// convert-hfusion-to-hivm (with the sync solver's barriers, which the twin
// requires between vector ops).
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 16 range:-4:0.5
// RUN: python3 %root/scripts/npy.py %t.y.npy f32 16 range:3:-0.25
// RUN: python3 %root/scripts/npy.py %t.a.npy i32 2x4 -17 -9 -3 0 5 11 40 123
// RUN: python3 %root/scripts/npy.py %t.m.npy f32 4x8 range:-4:0.25
// RUN: python3 %root/scripts/npy.py %t.n.npy f32 4x8 range:3:-0.5
// RUN: hivm-opt %s --convert-hfusion-to-hivm --hivm-graph-sync-solver -o %t.hivm.mlir
// RUN: hivm-opt %t.hivm.mlir | FileCheck %s --check-prefix=HV
// RUN: hivm-run %s --entry floats --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --arg zeros:16xf16 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=F --implicit-check-not=error
// RUN: hivm-run %t.hivm.mlir --entry floats --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --arg zeros:16xf16 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=F --implicit-check-not=error
// RUN: hivm-run %s --entry ints --arg %t.a.npy --arg zeros:2x4xi32 --arg zeros:2xi32 --print 1 --print 2 2>&1 | FileCheck %s --check-prefix=I --implicit-check-not=error
// RUN: hivm-run %t.hivm.mlir --entry ints --arg %t.a.npy --arg zeros:2x4xi32 --arg zeros:2xi32 --print 1 --print 2 2>&1 | FileCheck %s --check-prefix=I --implicit-check-not=error
// RUN: hivm-run %s --entry rows --arg %t.m.npy --arg %t.n.npy --arg zeros:4x8xf32 --arg zeros:4xf32 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=R --implicit-check-not=error
// RUN: hivm-run %t.hivm.mlir --entry rows --arg %t.m.npy --arg %t.n.npy --arg zeros:4x8xf32 --arg zeros:4xf32 --print 2 --print 3 2>&1 | FileCheck %s --check-prefix=R --implicit-check-not=error

// What ran the second time: HIVM ops only.
// HV-NOT: linalg.
// HV-NOT: hfusion.
// HV-LABEL: func.func @floats
// HV: hivm.hir.vmul
// HV: hivm.hir.vcmp
// HV: hivm.hir.vsel
// HV: hivm.hir.vcast
// HV-LABEL: func.func @ints
// HV: hivm.hir.vbrc
// HV: hivm.hir.vand
// HV: hivm.hir.vor
// HV: hivm.hir.vreduce <xori>
// HV-LABEL: func.func @rows
// HV: hivm.hir.vreduce <sum>
// HV: hivm.hir.vreduce <max>
// HV: hivm.hir.vbrc

// F: [6, 5.5, 5, 4.5, 4, 3, 2, 1, -0, -1, -2, -3, -4, -5, -6, -7]
// F: [6, 5.5, 5, 4.5, 4, 3, 2, 1, -0, -1, -2, -3, -4, -5, -6, -7]
func.func @floats(%x: memref<16xf32>, %y: memref<16xf32>, %o: memref<16xf32>, %h: memref<16xf16>) {
  %t = memref.alloc() : memref<16xf32>
  linalg.elemwise_unary {fun = #linalg.unary_fn<negf>} ins(%x : memref<16xf32>) outs(%t : memref<16xf32>)
  %m = memref.alloc() : memref<16xi1>
  hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>} ins(%t, %y : memref<16xf32>, memref<16xf32>) outs(%m : memref<16xi1>)
  hfusion.select ins(%m, %t, %y : memref<16xi1>, memref<16xf32>, memref<16xf32>) outs(%o : memref<16xf32>)
  %two = arith.constant 2.0 : f32
  linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%two, %o : f32, memref<16xf32>) outs(%o : memref<16xf32>)
  hfusion.cast {round_mode = #hfusion.round_mode<rint>} ins(%o : memref<16xf32>) outs(%h : memref<16xf16>)
  return
}

// I: {{\[\[}}7, 7, 5, 1],
// I-NEXT: [5, 11, 40, 123]]
// I-NEXT: [4, 93]
func.func @ints(%a: memref<2x4xi32>, %o: memref<2x4xi32>, %s: memref<2xi32>) {
  %k = arith.constant 6 : i32
  hfusion.elemwise_binary {fun = #hfusion.binary_fn<vand>} ins(%k, %a : i32, memref<2x4xi32>) outs(%o : memref<2x4xi32>)
  %one = arith.constant 1 : i32
  hfusion.elemwise_binary {fun = #hfusion.binary_fn<vor>} ins(%o, %one : memref<2x4xi32>, i32) outs(%o : memref<2x4xi32>)
  linalg.elemwise_binary {fun = #linalg.binary_fn<max_signed>} ins(%o, %a : memref<2x4xi32>, memref<2x4xi32>) outs(%o : memref<2x4xi32>)
  linalg.reduce { arith.xori } ins(%o : memref<2x4xi32>) outs(%s : memref<2xi32>) dimensions = [1]
  return
}

// R: {{\[\[}}2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75],
// R-COUNT-3: [2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75]
// R-NEXT: [-40.5, 15.5, -56.5, -256.5]
func.func @rows(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %o: memref<4x8xf32>, %r: memref<4xf32>) {
  %t = memref.alloc() : memref<4x8xf32>
  linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%x, %y : memref<4x8xf32>, memref<4x8xf32>) outs(%t : memref<4x8xf32>)
  %half = arith.constant 0.5 : f32
  linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%t, %half : memref<4x8xf32>, f32) outs(%o : memref<4x8xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%r : memref<4xf32>)
  linalg.reduce { arith.addf } ins(%o : memref<4x8xf32>) outs(%r : memref<4xf32>) dimensions = [1]
  %row = memref.alloc() : memref<8xf32>
  linalg.reduce { arith.maximumf } ins(%x : memref<4x8xf32>) outs(%row : memref<8xf32>) dimensions = [0]
  linalg.broadcast ins(%row : memref<8xf32>) outs(%o : memref<4x8xf32>) dimensions = [0]
  return
}
