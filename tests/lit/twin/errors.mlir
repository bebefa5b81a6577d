// Bad input and bad kernels give located errors and exit 1, never a crash.
// RUN: not hivm-run %s --entry oob --arg zeros:4xi32 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not hivm-run %s --entry ub_overflow 2>&1 | FileCheck %s --check-prefix=UBOVF
// RUN: not hivm-run %s --entry div --arg 0 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not hivm-run %s --entry oob 2>&1 | FileCheck %s --check-prefix=ARGC
// RUN: not hivm-run %s --entry oob --arg zeros:5xi32 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not hivm-run %s --entry oob --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not hivm-run %s --entry div --arg x1 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not hivm-run %s --arg 1 2>&1 | FileCheck %s --check-prefix=WHICH
// RUN: not hivm-run %s --entry nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not hivm-run %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not hivm-run %s --entry oob --arg zeros:4xq7 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not hivm-run %s --entry oob --blocks 0 --arg zeros:4xi32 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not hivm-run %s --entry ok --arg zeros:4xi32 --save 0=/nonexistent/dir/x.npy 2>&1 | FileCheck %s --check-prefix=SAVE

// OOB: errors.mlir:[[@LINE+4]]:3: error: index [4] is out of bounds of a memref of shape [4]
func.func @oob(%m: memref<4xi32>) {
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  memref.store %z, %m[%c4] : memref<4xi32>
  return
}

// UBOVF: errors.mlir:[[@LINE+3]]:8: error: UB overflow: this view spans bytes [196480, 196736) but UB holds 196608 bytes
func.func @ub_overflow() {
  %a = arith.constant 196480 : i64
  %v = hivm.hir.pointer_cast(%a) : memref<64xf32, #hivm.address_space<ub>>
  return
}

// DIV: errors.mlir:[[@LINE+3]]:8: error: integer division by zero
func.func @div(%d: i32) {
  %one = arith.constant 1 : i32
  %q = arith.divsi %one, %d : i32
  return
}

func.func @ok(%m: memref<4xi32>) {
  return
}

// ARGC: error: the entry function takes 1 argument(s) (memref<4xi32>) but 0 --arg were given
// SHAPE: error: argument 0 (memref<4xi32>): given shape [5]
// DTYPE: error: argument 0 (memref<4xi32>): given f32 data
// NAN: error: argument 0 (i32): 'x1' is not an integer
// WHICH: error: the kernel defines several functions (@oob, @ub_overflow, @div, @ok): choose one with --entry
// NOPE: error: no function @nope in the kernel
// MISSING: error: cannot read {{.*}}does-not-exist.mlir
// TYPE: hivm-run: error: --arg zeros:4xq7: unknown element type 'q7' in 'zeros:4xq7'
// BLOCKS: hivm-run: error: --blocks must be at least 1
// SAVE: hivm-run: error: cannot write /nonexistent/dir/x.npy
