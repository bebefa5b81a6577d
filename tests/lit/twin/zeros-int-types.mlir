// `zeros:` takes every spelling of an integer element type MLIR has:
// signless (i8), unsigned (ui8) and signed (si8); the twin keeps integers
// by width, so each matches a parameter of the same width. A bad spelling
// is still refused. Printed and saved, an unsigned parameter's array reads
// as unsigned (ui8's 254 is 254, saved as numpy's uint8).
// RUN: python3 %root/scripts/npy.py %t.u.npy u8 4 1 2 254 255
// RUN: hivm-run %s --entry u8 --arg %t.u.npy --arg zeros:4xui8 --print 1 --save 1=%t.o.npy 2>&1 | FileCheck %s --check-prefix=U8
// RUN: grep -a -o "'descr': '|u1'" %t.o.npy | FileCheck %s --check-prefix=SAVED
// RUN: hivm-run %s --entry wide --arg zeros:2xui16 --arg zeros:2xsi32 --arg zeros:2xui64 --arg zeros:2xi16 --print 0 --print 3 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not hivm-run %s --entry u8 --arg %t.u.npy --arg zeros:4xu8 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not hivm-run %s --entry u8 --arg %t.u.npy --arg zeros:4xui 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not hivm-run %s --entry u8 --arg %t.u.npy --arg zeros:4xi16 2>&1 | FileCheck %s --check-prefix=WIDTH
// U8: arg 1 (memref<4xui8>): [1, 2, 254, 255]
// SAVED: 'descr': '|u1'
// WIDE: arg 0 (memref<2xui16>): [0, 0]
// WIDE-NEXT: arg 3 (memref<2xi16>): [0, 0]
// WIDTH: error: argument 1 (memref<4xui8>): given i16 data
// Same size is not the same type between integers: int8 data for i1 is refused.
// RUN: not hivm-run %s --entry bools --arg %t.u.npy 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: error: argument 0 (memref<4xi1>): given i8 data
// BAD: error: --arg zeros:4xu8: unknown element type 'u8' in 'zeros:4xu8'
// EMPTY: error: --arg zeros:4xui: unknown element type 'ui' in 'zeros:4xui'
func.func @u8(%src: memref<4xui8>, %dst: memref<4xui8>) {
  memref.copy %src, %dst : memref<4xui8> to memref<4xui8>
  return
}

func.func @wide(%a: memref<2xui16>, %b: memref<2xsi32>, %c: memref<2xui64>, %d: memref<2xi16>) {
  return
}

func.func @bools(%a: memref<4xi1>) {
  return
}
