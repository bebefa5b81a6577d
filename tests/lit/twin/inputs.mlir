// Bad inputs are located errors, never a panic or a silently wrong run.
// A .npy whose data does not match its header's shape:
// RUN: head -c 252 %S/../../../examples/custom_add/a.npy > %t.short.npy
// RUN: not hivm-run %s --entry copy --arg %t.short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: cat %S/../../../examples/custom_add/a.npy > %t.long.npy && printf 'abcd' >> %t.long.npy
// RUN: not hivm-run %s --entry copy --arg %t.long.npy 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: hivm-run %s --entry copy --arg %S/../../../examples/custom_add/a.npy --print 0 | FileCheck %s --check-prefix=GOOD
// --timeout of any value:
// RUN: not hivm-run %s --entry copy --arg zeros:32xi32 --timeout 1e300 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not hivm-run %s --entry copy --arg zeros:32xi32 --timeout -1 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not hivm-run %s --entry copy --arg zeros:32xi32 --timeout 0 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not hivm-run %s --entry copy --arg zeros:32xi32 --timeout nan 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not hivm-run %s --entry copy --arg zeros:32xi32 --timeout inf 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: hivm-run %s --entry copy --arg zeros:32xi32 --timeout 1e-300
// RUN: hivm-run %s --entry copy --arg zeros:32xi32 --timeout 1e18
// A kernel that is not UTF-8:
// RUN: printf 'func.func @k() {\n  return // \377\n}\n' > %t.latin1.mlir
// RUN: not hivm-run %t.latin1.mlir 2>&1 | FileCheck %s --check-prefix=UTF8
// Blocks run one after another, each with fresh memories; many blocks run.
// RUN: hivm-run %s --entry per_block --arg zeros:4xi32 --blocks 100000 --print 0 | FileCheck %s --check-prefix=BLOCKS

// SHORT: error: argument 0 (memref<32xi32>): {{.*}}short.npy: the file holds 124 bytes of data, 4 fewer than its header's shape [32] of <i4 needs (128)
// LONG: error: argument 0 (memref<32xi32>): {{.*}}long.npy: the file holds 132 bytes of data, 4 more than its header's shape [32] of <i4 needs (128)
// GOOD: [1, 2, 3
// TIMEOUT: hivm-run: error: --timeout must be a positive number of seconds
// TIMEOUT-NOT: panicked
// UTF8: latin1.mlir:2:13: error: input is not valid UTF-8
func.func @copy(%m: memref<32xi32>) {
  return
}

// Every block finds its UB buffer zeroed, adds its index and stores the
// sum into its own element: a block seeing an earlier block's UB would
// store more.
// BLOCKS: [0, 1, 2, 3]
func.func @per_block(%out: memref<4xi32>) {
  %ub = memref.alloc() : memref<1xi32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %b = hivm.hir.get_block_idx -> i64
  %bi = arith.index_cast %b : i64 to index
  %old = memref.load %ub[%c0] : memref<1xi32, #hivm.address_space<ub>>
  %b32 = arith.trunci %b : i64 to i32
  %new = arith.addi %old, %b32 : i32
  memref.store %new, %ub[%c0] : memref<1xi32, #hivm.address_space<ub>>
  %c4 = arith.constant 4 : index
  %in = arith.cmpi ult, %bi, %c4 : index
  scf.if %in {
    memref.store %new, %out[%bi] : memref<4xi32>
  }
  return
}
