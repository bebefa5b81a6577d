// 8-bit floats in the twin: constants, truncf (MLIR's rounding: to nearest
// even; f8E4M3FN has no infinity, so overflow is NaN, f8E5M2's is inf),
// extf, loads/stores, bitcasts and --print of f8 arrays; f8 arrays come in
// as their codes (an i8/u8 .npy). (vcast into f8: cube-mx.mlir.)
// RUN: python3 %root/scripts/npy.py %t.codes.npy u8 4 56 126 127 254
// RUN: hivm-run %s --entry k --arg %t.codes.npy --arg zeros:6xf32 --print 0 --print 1 2>&1 | FileCheck %s --implicit-check-not=error
// CHECK: arg 0 (memref<4xf8E4M3FN>): [1, 448, NaN, -448]
// CHECK: arg 1 (memref<6xf32>): [0.3125, 57344, 53, 448, NaN, inf]
// An f8 scalar passed to a custom op is refused (no C type receives it).
// RUN: not hivm-run %s --impl %S/Inputs/f8_scalar.cpp --entry f8_scalar --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: f8.mlir:[[@LINE+3]]:3: error: an 8-bit float scalar operand is not supported by the CPU twin yet (C has no type to receive it)
func.func @f8_scalar(%m: memref<16xf32>) {
  %x = arith.constant 1.5 : f8E4M3FN
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "f8_scalar"} "k" ins(%m, %x : memref<16xf32>, f8E4M3FN) outs(%m : memref<16xf32>)
  return
}

func.func @k(%codes: memref<4xf8E4M3FN>, %n: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : memref<1xf8E5M2>
  %big = arith.constant 57344.0 : f8E5M2
  %x = arith.constant 0.3 : f32
  %t = arith.truncf %x : f32 to f8E5M2
  %e = arith.extf %t : f8E5M2 to f32
  memref.store %e, %n[%c0] : memref<6xf32>
  memref.store %big, %m[%c0] : memref<1xf8E5M2>
  %l = memref.load %m[%c0] : memref<1xf8E5M2>
  %le = arith.extf %l : f8E5M2 to f32
  memref.store %le, %n[%c1] : memref<6xf32>
  %bc = arith.bitcast %t : f8E5M2 to i8
  %bf = arith.sitofp %bc : i8 to f32
  memref.store %bf, %n[%c2] : memref<6xf32>
  // 464 is half way between 448 and 480 (NaN's code): to even, 448.
  %h = arith.constant 464.0 : f32
  %h8 = arith.truncf %h : f32 to f8E4M3FN
  %h32 = arith.extf %h8 : f8E4M3FN to f32
  memref.store %h32, %n[%c3] : memref<6xf32>
  %o = arith.constant 500.0 : f32
  %o8 = arith.truncf %o : f32 to f8E4M3FN
  %o32 = arith.extf %o8 : f8E4M3FN to f32
  memref.store %o32, %n[%c4] : memref<6xf32>
  %p = arith.constant 70000.0 : f32
  %p8 = arith.truncf %p : f32 to f8E5M2
  %p32 = arith.extf %p8 : f8E5M2 to f32
  memref.store %p32, %n[%c5] : memref<6xf32>
  return
}

