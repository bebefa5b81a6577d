// affine.min / affine.max / affine.apply in the interpreter.
// RUN: hivm-run %s --arg zeros:3xi64 --arg 3 --print 0 | FileCheck %s --check-prefix=LOW
// RUN: hivm-run %s --arg zeros:3xi64 --arg 9 --print 0 | FileCheck %s --check-prefix=HIGH
// LOW: [10, 13, 6]
// HIGH: [7, 10, 18]
func.func @k(%out: memref<3xi64>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = arith.constant 10 : index
  %a = affine.min affine_map<(d0)[s0] -> (s0, -d0 + 16)>(%i)[%s]
  %b = affine.max affine_map<(d0)[s0] -> (s0, -d0 + 16)>(%i)[%s]
  %c = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
  %ai = arith.index_cast %a : index to i64
  %bi = arith.index_cast %b : index to i64
  %ci = arith.index_cast %c : index to i64
  memref.store %ai, %out[%c0] : memref<3xi64>
  memref.store %bi, %out[%c1] : memref<3xi64>
  memref.store %ci, %out[%c2] : memref<3xi64>
  return
}
