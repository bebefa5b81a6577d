// Intrinsics in implementations are held to the bounds of each UB buffer:
// an access may not run past the end of an operand, nor touch a live UB
// buffer of the kernel that the op was not passed. Scratch UB formed from
// integer addresses is fine where nothing live is.
// RUN: not hivm-run %s --impl %S/Inputs/ub.cpp --entry relu_double --arg zeros:64xf32 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: hivm-run %s --impl %S/Inputs/ub.cpp --entry relu --arg zeros:64xf32
// RUN: not hivm-run %s --impl %S/Inputs/ub.cpp --entry clobber_live --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=LIVE
// RUN: hivm-run %s --impl %S/Inputs/ub.cpp --entry clobber_dead --arg zeros:8xf32
// RUN: hivm-run %s --impl %S/Inputs/ub.cpp --entry scratch_free --arg zeros:8xf32
// RUN: not hivm-run %s --impl %S/Inputs/ub.cpp --entry live_in_loop --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not hivm-run %s --impl %S/Inputs/ub.cpp --entry into_operand --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=INTO

// The output and the input are neighbours in UB; a mask twice the output's
// length makes vrelu write the input too.
// DOUBLE: ub-bounds.mlir:[[@LINE+4]]:3: error: custom op 'relu' (_mlir_ciface_relu_double): vrelu(dst=UB+0, src0=UB+256, repeat={{[0-9]+}}, strides {{[0-9]+/[0-9]+ [0-9]+/[0-9]+}}) [counter mask] writes UB[0, 512), which starts in outs[0] (UB[0, 256)) and runs 256 bytes past its end
func.func @relu_double(%out: memref<64xf32>) {
  %dst = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %src = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "relu_double"} "relu" ins(%src : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<ub>>)
  return
}

func.func @relu(%out: memref<64xf32>) {
  %dst = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %src = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "relu"} "relu" ins(%src : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%dst : memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32>)
  return
}

// Scratch at UB address 0 is where %keep lives, and %keep is stored after
// the op: the implementation destroys it.
// LIVE: ub-bounds.mlir:[[@LINE+4]]:3: error: custom op 'double' (_mlir_ciface_scratch_at_0): vadds({{.*}}) [counter mask] writes UB[0, 32), which overlaps a live memref.alloc buffer defined at {{.*}}ub-bounds.mlir:[[@LINE+2]]:11 that the op was not passed (UB[0, 32))
func.func @clobber_live(%out: memref<8xf32>) {
  %keep = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %dst = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scratch_at_0"} "double" outs(%dst : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%keep : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// The same, but %keep is not used after the op: its memory is free.
func.func @clobber_dead(%out: memref<8xf32>) {
  %keep = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.store ins(%keep : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  %dst = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scratch_at_0"} "double" outs(%dst : memref<8xf32, #hivm.address_space<ub>>)
  return
}

// Scratch far from every buffer.
func.func @scratch_free(%out: memref<8xf32>) {
  %dst = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scratch_at_64k"} "double" outs(%dst : memref<8xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%dst : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
  return
}

// %acc (at UB 0) is used earlier in the loop body only, but the loop comes
// round to it again: it is live when the op runs.
// LOOP: ub-bounds.mlir:[[@LINE+10]]:5: error: custom op 'double' (_mlir_ciface_scratch_at_0): {{.*}} which overlaps a live memref.alloc buffer
func.func @live_in_loop(%out: memref<8xf32>) {
  %acc = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %dst = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    hivm.hir.store ins(%acc : memref<8xf32, #hivm.address_space<ub>>) outs(%out : memref<8xf32>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scratch_at_0"} "double" outs(%dst : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  return
}

// INTO: ub-bounds.mlir:[[@LINE+4]]:3: error: custom op 'bump' (_mlir_ciface_scratch_before): vadds({{.*}}) [counter mask] writes UB[32, 288), which runs into outs[0] (UB[160, 192)) from outside it
func.func @into_operand(%out: memref<8xf32>) {
  %pad = memref.alloc() : memref<40xf32, #hivm.address_space<ub>>
  %dst = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scratch_before"} "bump" outs(%dst : memref<8xf32, #hivm.address_space<ub>>)
  return
}
