// RUN: not hivm-opt -split-input-file -hivm-mark-stride-align %s 2>/dev/null | FileCheck %s
// RUN: hivm-opt -split-input-file -hivm-mark-stride-align -verify-diagnostics %s -o /dev/null

// The mark goes at the start of the block for arguments, after the defining
// op otherwise; alignment is 32 bytes for ub and cbuf.
// CHECK-LABEL: func.func @marks
// CHECK-NEXT:    annotation.mark %arg0 {hivm.stride_align_dims = array<i32: 1>, hivm.stride_align_value_in_byte = array<i32: 32>} : memref<4x8xf16, #hivm.address_space<ub>>
// CHECK-NEXT:    %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT:    %0 = hivm.hir.pointer_cast
// CHECK-NEXT:    annotation.mark %0 {hivm.stride_align_dims = array<i32: 0>, hivm.stride_align_value_in_byte = array<i32: 32>} : memref<16xf16, #hivm.address_space<cbuf>>
func.func @marks(%a: memref<4x8xf16, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : i64
  %l1 = hivm.hir.pointer_cast(%c0) : memref<16xf16, #hivm.address_space<cbuf>>
  hivm.hir.custom {arg_attrs = [{align_dim = 1 : i64}, {align_dim = 0 : i64}], hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "u.x" ins(%a, %l1 : memref<4x8xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<cbuf>>) outs(%a : memref<4x8xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @too_large(%a: memref<4xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{align dim is too large.}}
  hivm.hir.custom {arg_attrs = [{align_dim = 1 : i64}], hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "u.x" ins(%a : memref<4xf16, #hivm.address_space<ub>>) outs(%a : memref<4xf16, #hivm.address_space<ub>>)
  return
}

// -----

func.func @tensor(%t: tensor<4xf16>, %a: memref<4xf16, #hivm.address_space<ub>>) {
  // expected-error @+1 {{Not bufferized.}}
  hivm.hir.custom {arg_attrs = [{align_dim = 0 : i64}], hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "u.x" ins(%t : tensor<4xf16>) outs(%a : memref<4xf16, #hivm.address_space<ub>>)
  return
}
