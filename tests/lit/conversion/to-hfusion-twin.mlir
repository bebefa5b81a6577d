// The hfusion stage computes what the linalg stage did: kernels whose arith
// and math on tensors become linalg/hfusion named ops run on the twin with
// the same numbers before and after convert-{arith,math}-to-hfusion.
// RUN: python3 %root/scripts/npy.py %t.x.npy f32 16 range:-4:0.5
// RUN: python3 %root/scripts/npy.py %t.y.npy f32 16 range:3:-0.25
// RUN: python3 %root/scripts/npy.py %t.xi.npy i32 8 -17 -9 -3 0 5 11 40 123
// RUN: python3 %root/scripts/npy.py %t.yi.npy i32 8 4 -3 7 2 -6 3 9 -5
// RUN: hivm-run %s --entry floats --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --print 2 2>&1 | FileCheck %s --check-prefix=F --implicit-check-not=error
// RUN: hivm-opt %s --convert-arith-to-hfusion --convert-math-to-hfusion -o %t.hf.mlir
// RUN: hivm-run %t.hf.mlir --entry floats --arg %t.x.npy --arg %t.y.npy --arg zeros:16xf32 --print 2 2>&1 | FileCheck %s --check-prefix=F --implicit-check-not=error
// RUN: hivm-run %s --entry ints --arg %t.xi.npy --arg %t.yi.npy --arg zeros:8xi32 --print 2 2>&1 | FileCheck %s --check-prefix=I --implicit-check-not=error
// RUN: hivm-run %t.hf.mlir --entry ints --arg %t.xi.npy --arg %t.yi.npy --arg zeros:8xi32 --print 2 2>&1 | FileCheck %s --check-prefix=I --implicit-check-not=error
// RUN: hivm-opt %t.hf.mlir | FileCheck %s --check-prefix=HF

// What ran the second time: named ops only.
// HF-LABEL: func.func @floats
// HF: linalg.fill
// HF: linalg.elemwise_binary {fun = #linalg.binary_fn<add>}
// HF: linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
// HF: hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>}
// HF: hfusion.select
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<maxnumf>}
// HF: hfusion.cast
// HF: hfusion.cast
// HF: hfusion.elemwise_unary {fun = #hfusion.unary_fn<sqrt>}
// HF: linalg.elemwise_unary {fun = #linalg.unary_fn<exp>}
// HF-LABEL: func.func @ints
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<floordivsi>}
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<mod>}
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<shli>}
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<vxor>}
// HF: hfusion.compare {compare_fn = #hfusion.compare_fn<vlt>}
// HF: hfusion.select
// HF: hfusion.cast {cast = #hfusion.type_fn<cast_signed>, round_mode = #hfusion.round_mode<truncwithoverflow>}
// HF: hfusion.cast
// HF: linalg.elemwise_binary {fun = #linalg.binary_fn<max_signed>}
// HF: hfusion.elemwise_unary {fun = #hfusion.unary_fn<absi>}
// HF: hfusion.elemwise_binary {fun = #hfusion.binary_fn<ceildivsi>}

// exp(sqrt(f16(max(x < y ? (x + y) / 2 : x, y)))), x = -4 + i/2, y = 3 - i/4.
// F: [5.6522336, 5.250443, 4.860488, 4.481689, 4.1132503, 3.7542014, 3.403298, 3.0588346, 2.7182817, 2.3774426, 2.7182817, 3.403298, 4.1132503, 4.860488, 5.6522336, 6.4936757]
// ceil(|max(i16(t < x ? t : y), x % y)| / 2) with t = (x floordiv y) ^ ((x % y) << 2).
// I: [2, 0, 4, 1, 3, 2, 10, 2]
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @floats(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xf32>) {
    %rx = memref.reinterpret_cast %x to offset: [0], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1]>>
    %ry = memref.reinterpret_cast %y to offset: [0], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1]>>
    %ro = memref.reinterpret_cast %o to offset: [0], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1]>>
    %ax = memref.alloc() : memref<16xf32>
    memref.copy %rx, %ax : memref<16xf32, strided<[1]>> to memref<16xf32>
    %tx = bufferization.to_tensor %ax restrict writable : memref<16xf32> to tensor<16xf32>
    %ay = memref.alloc() : memref<16xf32>
    memref.copy %ry, %ay : memref<16xf32, strided<[1]>> to memref<16xf32>
    %ty = bufferization.to_tensor %ay restrict writable : memref<16xf32> to tensor<16xf32>
    %half = arith.constant dense<0.5> : tensor<16xf32>
    %s = arith.addf %tx, %ty : tensor<16xf32>
    %m = arith.mulf %s, %half : tensor<16xf32>
    %lt = arith.cmpf olt, %tx, %ty : tensor<16xf32>
    %sel = arith.select %lt, %m, %tx : tensor<16xi1>, tensor<16xf32>
    %mx = arith.maxnumf %sel, %ty : tensor<16xf32>
    %h = arith.truncf %mx : tensor<16xf32> to tensor<16xf16>
    %e = arith.extf %h : tensor<16xf16> to tensor<16xf32>
    %q = math.sqrt %e : tensor<16xf32>
    %ex = math.exp %q : tensor<16xf32>
    bufferization.materialize_in_destination %ex in writable %ro : (tensor<16xf32>, memref<16xf32, strided<[1]>>) -> ()
    return
  }
  func.func @ints(%x: memref<?xi32>, %y: memref<?xi32>, %o: memref<?xi32>) {
    %rx = memref.reinterpret_cast %x to offset: [0], sizes: [8], strides: [1] : memref<?xi32> to memref<8xi32, strided<[1]>>
    %ry = memref.reinterpret_cast %y to offset: [0], sizes: [8], strides: [1] : memref<?xi32> to memref<8xi32, strided<[1]>>
    %ro = memref.reinterpret_cast %o to offset: [0], sizes: [8], strides: [1] : memref<?xi32> to memref<8xi32, strided<[1]>>
    %ax = memref.alloc() : memref<8xi32>
    memref.copy %rx, %ax : memref<8xi32, strided<[1]>> to memref<8xi32>
    %a = bufferization.to_tensor %ax restrict writable : memref<8xi32> to tensor<8xi32>
    %ay = memref.alloc() : memref<8xi32>
    memref.copy %ry, %ay : memref<8xi32, strided<[1]>> to memref<8xi32>
    %b = bufferization.to_tensor %ay restrict writable : memref<8xi32> to tensor<8xi32>
    %two = arith.constant dense<2> : tensor<8xi32>
    %0 = arith.floordivsi %a, %b : tensor<8xi32>
    %1 = arith.remsi %a, %b : tensor<8xi32>
    %2 = arith.shli %1, %two : tensor<8xi32>
    %3 = arith.xori %0, %2 : tensor<8xi32>
    %4 = arith.cmpi slt, %3, %a : tensor<8xi32>
    %5 = arith.select %4, %3, %b : tensor<8xi1>, tensor<8xi32>
    %6 = arith.trunci %5 : tensor<8xi32> to tensor<8xi16>
    %7 = arith.extsi %6 : tensor<8xi16> to tensor<8xi32>
    %8 = arith.maxsi %7, %1 : tensor<8xi32>
    %9 = math.absi %8 : tensor<8xi32>
    %10 = arith.ceildivsi %9, %two : tensor<8xi32>
    bufferization.materialize_in_destination %10 in writable %ro : (tensor<8xi32>, memref<8xi32, strided<[1]>>) -> ()
    return
  }
}
