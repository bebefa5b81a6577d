// A vcast must be a conversion the vector unit or the target's library
// provides; others are named as the library would name them. Which
// software sequences exist depends on the target's generation.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @hardware(%f: memref<8xf32>, %h: memref<8xf16>, %b: memref<8xi8>) {
  hivm.hir.vcast ins(%f : memref<8xf32>) outs(%h : memref<8xf16>) round_mode = <odd>
  hivm.hir.vcast ins(%h : memref<8xf16>) outs(%b : memref<8xi8>) round_mode = <floor> cast = <cast_unsigned>
  // expected-error@+1 {{'hivm.hir.vcast' op currently don't support cast half_to_int8_t_oddmode}}
  hivm.hir.vcast ins(%h : memref<8xf16>) outs(%b : memref<8xi8>) round_mode = <odd>
  return
}

// -----

func.func @unsigned_names(%f: memref<8xf32>, %u: memref<8xi32>) {
  // expected-error@+1 {{currently don't support cast float_to_uint32_t_rintmode}}
  hivm.hir.vcast ins(%f : memref<8xf32>) outs(%u : memref<8xi32>) cast = <cast_unsigned>
  return
}

// -----

func.func @bool_and_f8(%i: memref<8xi1>, %e: memref<8xf8E4M3FN>) {
  // expected-error@+1 {{currently don't support cast bool_to_float8_e4m3_t_rintmode}}
  hivm.hir.vcast ins(%i : memref<8xi1>) outs(%e : memref<8xf8E4M3FN>)
  return
}

// -----

// Memory-based targets (and modules naming no target) lack the register-based
// generation's f32 -> i32 overflow-wrapping sequence.
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @memory_based(%f: memref<8xf32>, %i: memref<8xi32>, %s: memref<8xi16>, %b: memref<8xi8>) {
    hivm.hir.vcast ins(%s : memref<8xi16>) outs(%b : memref<8xi8>) round_mode = <truncwithoverflow>
    // expected-error@+1 {{currently don't support cast float_to_int32_t_truncwithoverflowmode}}
    hivm.hir.vcast ins(%f : memref<8xf32>) outs(%i : memref<8xi32>) round_mode = <truncwithoverflow>
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @register_based(%f: memref<8xf32>, %i: memref<8xi32>, %s: memref<8xi16>, %b: memref<8xi8>) {
    hivm.hir.vcast ins(%f : memref<8xf32>) outs(%i : memref<8xi32>) round_mode = <truncwithoverflow>
    hivm.hir.vcast ins(%s : memref<8xi16>) outs(%b : memref<8xi8>) round_mode = <trunc>
    // expected-error@+1 {{currently don't support cast int16_t_to_int8_t_rintmode}}
    hivm.hir.vcast ins(%s : memref<8xi16>) outs(%b : memref<8xi8>)
    return
  }
}
