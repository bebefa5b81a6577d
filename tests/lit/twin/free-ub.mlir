// UB no live buffer owns is not an op's to write with plain stores: a store
// past the end of a UB operand lands there, and on the NPU that is whatever
// the compiler placed there. Intrinsics may use free UB as scratch (the
// CustomOp document's macro example does). Pages holding none of the op's
// operands are read-only in the call worker until an intrinsic writes them,
// so the check costs nothing per call where nothing is written.
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry one_past --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry far --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry other_far --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry scratch --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=SCRATCH
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry scratch_plain --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=SCRATCH
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry scratch_stray --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=STRAY
// RUN: hivm-run %s --impl %S/Inputs/writes.c --entry scratch_loop --arg zeros:8xf32 --print 0 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not hivm-run %s --impl %S/Inputs/writes.c --entry call --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=CALL

// %b is the last buffer: the element after it is free UB. (The twin places
// allocations clear of every pointer_cast in the module, so after @other_far's.)
// PAST: free-ub.mlir:[[@LINE+4]]:3: error: custom op 'add' (_mlir_ciface_flip_one_past) changed UB bytes [{{[0-9]+}}, {{[0-9]+}}), just past the end of its outs[0] operand, which no live buffer owns, and no intrinsic wrote them (only intrinsics may use free UB, as scratch)
func.func @one_past(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "flip_one_past"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// Three pages on: a page the op holds no operand on (read-only in the worker).
// FAR: free-ub.mlir:[[@LINE+4]]:3: error: custom op 'add' (_mlir_ciface_flip_far) changed UB bytes [{{[0-9]+}}, {{[0-9]+}}), which no live buffer owns
func.func @far(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "flip_far"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// The same store, into a live buffer the op was not passed there.
// OTHER: free-ub.mlir:[[@LINE+8]]:3: error: custom op 'add' (_mlir_ciface_flip_far) wrote a live hivm.hir.pointer_cast buffer defined at {{[^ ]+}}free-ub.mlir:[[@LINE+7]]:11 that the op was not passed at byte offset 32 (bytes [32, 36) of 64 changed), which it may not write
func.func @other_far(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %c12000 = arith.constant 12000 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<8xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c32) : memref<8xf32, #hivm.address_space<ub>>
  %keep = hivm.hir.pointer_cast(%c12000) : memref<16xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "flip_far"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %k = memref.subview %keep[0] [8] [1] : memref<16xf32, #hivm.address_space<ub>> to memref<8xf32, strided<[1]>, #hivm.address_space<ub>>
  hivm.hir.store ins(%k : memref<8xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// SCRATCH-NOT: error
// SCRATCH: [2, 2, 2, 2, 2, 2, 2, 2]
func.func @scratch(%out: memref<8xf32>) {
  %c1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%c1 : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "far_scratch"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// A plain store into scratch an intrinsic wrote in the same call is fine.
func.func @scratch_plain(%out: memref<8xf32>) {
  %c1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%c1 : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "far_scratch_plain"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// STRAY: free-ub.mlir:[[@LINE+4]]:3: error: custom op 'add' (_mlir_ciface_far_scratch_stray) changed UB bytes [12320, 12324), {{[0-9]+}} bytes past the end of its outs[0] operand, which no live buffer owns
func.func @scratch_stray(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "far_scratch_stray"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// Each call opens the scratch page (a fault) and the next closes it again;
// the numbers stay right: 1 + 1, then + 1 per call.
// LOOP-NOT: error
// LOOP: [51, 51, 51, 51, 51, 51, 51, 51]
func.func @scratch_loop(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.vbrc ins(%one : f32) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  scf.for %i = %c0 to %c50 step %c1 {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "far_scratch"} "add" ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%b : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.copy ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%a : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  hivm.hir.store ins(%a : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// The same store from a function the kernel calls (an external declaration
// whose body is the implementation).
// CALL: free-ub.mlir:[[@LINE+5]]:3: error: @flip_one_past (_mlir_ciface_flip_one_past) changed UB bytes [{{[0-9]+}}, {{[0-9]+}}), just past the end of its operand #1, which no live buffer owns
func.func private @flip_one_past(memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) attributes {llvm.emit_c_interface}
func.func @call(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  func.call @flip_one_past(%a, %b) : (memref<8xf32, #hivm.address_space<ub>>, memref<8xf32, #hivm.address_space<ub>>) -> ()
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%b : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}
