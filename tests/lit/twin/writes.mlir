// Plain C stores outside an op's operands (no intrinsic, so nothing in the
// trace) are found: the op's ins (unless inplace_outs), the kernel's live UB
// buffers it was not passed and GM buffers it was not passed must not change.
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry ub --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry ub_one_past --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry ub_view_past --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=UBVIEW
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry ub_writes_in --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=IN
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry gm_other --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=GM
// Changing the protection or the pages of the twin's memory is refused (the write then faults).
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry gm_unprotected --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=MPROT
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry gm_punched --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:8xf32 --print 2 2>&1 | FileCheck %s --check-prefix=PUNCH
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry gm_remapped --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:8xf32 --print 2 2>&1 | FileCheck %s --check-prefix=PUNCH
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry gm_punched_remotely --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:2048xf32 --print 2 2>&1 | FileCheck %s --check-prefix=REMOTE
// A 64 MiB GM argument the op is not passed costs its calls nothing (it is
// read-only in the call worker, not copied) and a write into it is caught.
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry gm_big_clean --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:16777216xf32 --print 1 2>&1 | FileCheck %s --check-prefix=BIGOK
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry gm_big --arg zeros:8xf32 --arg zeros:8xf32 --arg zeros:16777216xf32 2>&1 | FileCheck %s --check-prefix=BIG
// A view of a GM argument: the rest of the argument, though on the same open page, is
// not the op's to write.
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry gm_view_past --arg zeros:8xf32 --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry gm_writes_in --arg zeros:8xf32 --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=GMIN
// The cube memories are read-only to implementations but for the operands
// they are passed there: any other write is found without a copy.
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry l1_out --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=L1OK --allow-empty
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry l1_far --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=L1FAR
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry l0c_in --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=L0CIN
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry inplace --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=INPLACE

// CLEAN-NOT: error
// CLEAN: [2, 2, 2, 2, 2, 2, 2, 2]
func.func @ub(%out: memref<8xf32>) {
  %c1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%c1 : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "add_one"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// %keep follows %b in UB and is stored after the op: one element past %b is %keep's first.
// PAST: writes.mlir:[[@LINE+5]]:3: error: custom op 'add' (_mlir_ciface_one_past) wrote a live memref.alloc buffer defined at {{.*}}writes.mlir:[[@LINE+4]]:11 that the op was not passed at byte offset 3 (bytes [3, 4) of 32 changed), which it may not write
func.func @ub_one_past(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %keep = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "one_past"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%keep : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// A view of a UB buffer is passed: the rest of that buffer is not the op's.
// UBVIEW: writes.mlir:[[@LINE+9]]:3: error: custom op 'add' (_mlir_ciface_view_past) wrote the part of a live memref.alloc buffer defined at {{.*}}writes.mlir:[[@LINE+4]]:8 outside the op's operands at byte offset {{[0-9]+}}
func.func @ub_view_past(%out: memref<8xf32>) {
  %c1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%c1 : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.vbrc ins(%c1 : f32) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %v = memref.subview %b[0] [8] [1] : memref<64xf32, #hivm.address_space<ub>> to memref<8xf32, strided<[1]>, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "view_past"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%v : memref<8xf32, strided<[1]>, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %w = memref.subview %b[8] [8] [1] : memref<64xf32, #hivm.address_space<ub>> to memref<8xf32, strided<[1], offset: 8>, #hivm.address_space<ub>>
  hivm.hir.store ins(%w : memref<8xf32, strided<[1], offset: 8>, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// IN: writes.mlir:[[@LINE+5]]:3: error: custom op 'add' (_mlir_ciface_writes_in) wrote its ins[0] operand (ins are read-only; inplace_outs allows writing one) at byte offset 2 (bytes [2, 32) of 32 changed)
func.func @ub_writes_in(%out: memref<8xf32>) {
  %c1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "writes_in"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// The kernel's third GM argument is not passed to the op.
// GM: writes.mlir:[[@LINE+2]]:3: error: custom op 'add' (_mlir_ciface_other_gm) wrote {{.*}}a GM buffer the op was not passed, at byte offset 4, which it may not write (only operands it is passed there; the write faulted: signal 11 (Segmentation fault))
func.func @gm_other(%in: memref<8xf32>, %out: memref<8xf32>, %other: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "other_gm"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// MPROT: writes.mlir:[[@LINE+2]]:3: error: custom op 'add' (_mlir_ciface_other_gm_unprotected) wrote {{.*}}a GM buffer the op was not passed, at byte offset 4, which it may not write
func.func @gm_unprotected(%in: memref<8xf32>, %out: memref<8xf32>, %other: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "other_gm_unprotected"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// PUNCH-NOT: error
// PUNCH: [5, 5, 5, 5, 5, 5, 5, 5]
func.func @gm_punched(%in: memref<8xf32>, %out: memref<8xf32>, %other: memref<8xf32>) {
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%other : memref<8xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "punch_other_gm"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

func.func @gm_remapped(%in: memref<8xf32>, %out: memref<8xf32>, %other: memref<8xf32>) {
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%other : memref<8xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "other_gm_remapped"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// REMOTE-NOT: error
// REMOTE: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
func.func @gm_punched_remotely(%in: memref<8xf32>, %out: memref<8xf32>, %other: memref<2048xf32>) {
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%other : memref<2048xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "punch_other_gm_remotely"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// BIGOK-NOT: error
// BIGOK: [1, 1, 1, 1, 1, 1, 1, 1]
func.func @gm_big_clean(%in: memref<8xf32>, %out: memref<8xf32>, %big: memref<16777216xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 200 : index
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "add_one"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  }
  return
}

// BIG: writes.mlir:[[@LINE+2]]:3: error: custom op 'add' (_mlir_ciface_other_gm) wrote argument 2, a GM buffer the op was not passed, at byte offset 4, which it may not write
func.func @gm_big(%in: memref<8xf32>, %out: memref<8xf32>, %big: memref<16777216xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "other_gm"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// VIEW: writes.mlir:[[@LINE+3]]:3: error: custom op 'add' (_mlir_ciface_view_past) wrote argument 1 outside its outs[0] operand at byte offset {{[0-9]+}} ({{.*}}), which it may not write
func.func @gm_view_past(%in: memref<8xf32>, %out: memref<64xf32>) {
  %v = memref.subview %out[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "view_past"} "add" ins(%in : memref<8xf32>) outs(%v : memref<8xf32, strided<[1]>>)
  return
}

// GMIN: writes.mlir:[[@LINE+2]]:3: error: custom op 'add' (_mlir_ciface_writes_in) wrote its ins[0] operand (ins are read-only; inplace_outs allows writing one) at byte offset 0, which it may not write
func.func @gm_writes_in(%in: memref<8xf32>, %out: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "writes_in"} "add" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// The same write to an ins, allowed by inplace_outs.
// INPLACE-NOT: error
// INPLACE: [1, 1, 1, 1, 1, 1, 1, 1]
func.func @inplace(%x: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "inc"} "inc" ins(%x : memref<8xf32> {inplace_outs = 0 : i32}) outs(%x : memref<8xf32>)
  return
}

// L1OK-NOT: error
func.func @l1_out(%out: memref<8xf32>) {
  %z = arith.constant 0 : i64
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %l1 = hivm.hir.pointer_cast(%z) : memref<8xf32, #hivm.address_space<cbuf>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_MTE3>, symbol = "add_one"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%l1 : memref<8xf32, #hivm.address_space<cbuf>>)
  return
}

// L1FAR: writes.mlir:[[@LINE+5]]:3: error: custom op 'add' (_mlir_ciface_l1_far) wrote L1 at byte offset 8192, which it may not write (only operands it is passed there; the write faulted: signal 11 (Segmentation fault))
func.func @l1_far(%out: memref<8xf32>) {
  %z = arith.constant 0 : i64
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %l1 = hivm.hir.pointer_cast(%z) : memref<8xf32, #hivm.address_space<cbuf>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_MTE3>, symbol = "l1_far"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%l1 : memref<8xf32, #hivm.address_space<cbuf>>)
  return
}

// An L0C input of a vector-core op (L0 is the scratch of cube-core ops
// only), read-only as every ins, written in place.
// L0CIN: writes.mlir:[[@LINE+5]]:3: error: custom op 'add' (_mlir_ciface_writes_in) wrote L0C at byte offset 0, which it may not write
func.func @l0c_in(%out: memref<8xf32>) {
  %z = arith.constant 0 : i64
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c = hivm.hir.pointer_cast(%z) : memref<8xf32, #hivm.address_space<cc>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "writes_in"} "add" ins(%c : memref<8xf32, #hivm.address_space<cc>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  return
}
