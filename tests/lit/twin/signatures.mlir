// The twin reads each implementation's parameters from the debug
// information it builds it with and compares them with what the op passes
// (ins, outs, tmps, sync args): count, and for each memref descriptor its
// element type and rank; scalars by type.
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry extra_tmp --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=TMP
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry float_given_f16 --arg zeros:16xf16 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry rank --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry raw --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry too_few --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry unsigned_op --arg zeros:16xi32 2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not hivm-run %s --impl %S/Inputs/sigs.cpp --entry narrow_event --arg zeros:16xf32 2>&1 | FileCheck %s --check-prefix=EVENT
// RUN: hivm-run %s --impl %S/Inputs/sigs.cpp --entry signless_ints --arg zeros:16xi32
// RUN: hivm-run %s --impl %S/Inputs/sigs.cpp --entry opaque --arg zeros:16xf32
// RUN: hivm-run %s --impl %S/Inputs/sigs.cpp --entry halves --arg zeros:16xf16
// RUN: hivm-run %s --impl %S/Inputs/sigs.c --entry c_doubles --arg zeros:4xf64
// RUN: not hivm-run %s --impl %S/Inputs/sigs.c --entry c_given_f32 --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=C
// A prebuilt object without debug information runs, and says once that it
// was not checked:
// RUN: cc -O2 -c %S/Inputs/sigs.c -o %t.sigs-nodebug.o
// RUN: hivm-run %s --impl %t.sigs-nodebug.o --entry c_twice --arg zeros:4xf64 2>&1 | FileCheck %s --check-prefix=NODEBUG

// TMP: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_extra_tmp): takes 3 parameters but the op passes 2 (ins: 1, outs: 1, tmps: 0, sync args: 0): parameter 3 'tmp' (memref_t<float, 1> *) has no operand
func.func @extra_tmp(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "extra_tmp"} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

// F16: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_float_kernel): parameter 1 'src' (memref_t<float, 1> *) does not match ins[0], which is memref<16xf16>: the descriptor's elements are a 32-bit floating-point
func.func @float_given_f16(%m: memref<16xf16>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "float_kernel"} "k" ins(%m : memref<16xf16>) outs(%m : memref<16xf16>)
  return
}

// RANK: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_rank_two): parameter 1 'src' (memref_t<float, 2> *) does not match ins[0], which is memref<16xf32>: the descriptor has rank 2, the memref rank 1
func.func @rank(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "rank_two"} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

// RAW: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_raw_pointer): parameter 1 'src' (float *) does not match ins[0], which is memref<16xf32>: memrefs are passed as pointers to MLIR memref descriptors (memref_t<T, Rank> *), not to their elements
func.func @raw(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "raw_pointer"} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

// FEW: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_too_few): takes 1 parameters but the op passes 2 (ins: 1, outs: 1, tmps: 0, sync args: 0): outs[0] (memref<16xf32>) has no parameter
func.func @too_few(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "too_few"} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

// SIGN: signatures.mlir:[[@LINE+3]]:3: error: custom op 'k' (_mlir_ciface_signed_ints): parameter 1 'src' (memref_t<{{(int|int32_t)}}, 1> *) does not match ins[0], which is memref<16xui32>: the descriptor's elements are a 32-bit signed integer
func.func @unsigned_op(%m: memref<16xi32>) {
  %u = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [1] : memref<16xi32> to memref<16xui32>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "signed_ints"} "k" ins(%u : memref<16xui32>) outs(%u : memref<16xui32>)
  return
}

func.func @signless_ints(%m: memref<16xi32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "unsigned_ints"} "k" ins(%m : memref<16xi32>) outs(%m : memref<16xi32>)
  return
}

// EVENT: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_narrow_event): parameter 3 'event' (int32_t) does not match sync arg 0, which is i64: the parameter is a 32-bit signed integer
func.func @narrow_event(%m: memref<16xf32>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "narrow_event",
      sync_event_slots = [#hivm.sync_event_slot<internal>]} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

func.func @opaque(%m: memref<16xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "opaque"} "k" ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}

func.func @halves(%m: memref<16xf16>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "half_kernel"} "k" ins(%m : memref<16xf16>) outs(%m : memref<16xf16>)
  return
}

func.func @c_doubles(%m: memref<4xf64>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "c_doubles"} "k" ins(%m : memref<4xf64>) outs(%m : memref<4xf64>)
  return
}

// C: signatures.mlir:[[@LINE+2]]:3: error: custom op 'k' (_mlir_ciface_c_doubles): parameter 1 'src' (memref_1d_f64 *) does not match ins[0], which is memref<4xf32>: the descriptor's elements are a 64-bit floating-point
func.func @c_given_f32(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "c_doubles"} "k" ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  return
}

// NODEBUG: signatures.mlir:[[@LINE+3]]:3: warning: custom op 'twice' (_mlir_ciface_c_doubles): the signature check was skipped: no debug information describes _mlir_ciface_c_doubles in {{.*}}sigs-nodebug.o (build it with -g to have it checked)
// NODEBUG-NOT: warning
func.func @c_twice(%m: memref<4xf64>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "c_doubles"} "twice" ins(%m : memref<4xf64>) outs(%m : memref<4xf64>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "c_doubles"} "twice" ins(%m : memref<4xf64>) outs(%m : memref<4xf64>)
  return
}
