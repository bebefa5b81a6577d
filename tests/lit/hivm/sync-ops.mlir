// RUN: hivm-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: hivm-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hivm-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | hivm-opt -split-input-file | FileCheck %s

// Control-register ops of a kernel prologue, and the attribute an outlined
// SIMT function carries on its memref arguments.

// CHECK-LABEL: func.func private @vf
// CHECK-SAME: memref<8xf32, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect<read>}
// CHECK-SAME: memref<?xf32, #hivm.address_space<gm>> {hivm.memory_effect = #hivm.memory_effect<write>}
// CHECK-SAME: memref<8xi64, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect<read_write>}
// CHECK-LABEL: func.func @prologue
// CHECK-NEXT: hivm.hir.set_ffts_base_addr %arg0
// CHECK-NEXT: hivm.hir.set_ffts_base_addr {hivm.note = "again"} %arg0
// CHECK-NEXT: hivm.hir.set_mask_norm
// CHECK-NEXT: hivm.hir.set_mask_norm {hivm.note}
// CHECK-NEXT: hivm.hir.set_ctrl false at ctrl[60]
// CHECK-NEXT: hivm.hir.set_ctrl true at ctrl[48] {hivm.note}
// CHECK-NEXT: return

// GENERIC: <{arg_attrs = [{hivm.memory_effect = #hivm.memory_effect<read>}, {hivm.memory_effect = #hivm.memory_effect<write>}, {hivm.memory_effect = #hivm.memory_effect<read_write>}]
// GENERIC-SAME: sym_name = "vf"
// GENERIC-LABEL: sym_name = "prologue"
// GENERIC: "hivm.hir.set_ffts_base_addr"(%arg0) : (i64) -> ()
// GENERIC-NEXT: "hivm.hir.set_ffts_base_addr"(%arg0) {hivm.note = "again"} : (i64) -> ()
// GENERIC-NEXT: "hivm.hir.set_mask_norm"() : () -> ()
// GENERIC-NEXT: "hivm.hir.set_mask_norm"() {hivm.note} : () -> ()
// GENERIC-NEXT: "hivm.hir.set_ctrl"() <{enable = false, idx = 60 : i64}> : () -> ()
// GENERIC-NEXT: "hivm.hir.set_ctrl"() <{enable = true, idx = 48 : i64}> {hivm.note} : () -> ()
func.func private @vf(memref<8xf32, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect< read >},
                      memref<?xf32, #hivm.address_space<gm>> {hivm.memory_effect = #hivm.memory_effect<write>},
                      memref<8xi64, #hivm.address_space<ub>> {hivm.memory_effect = #hivm.memory_effect<read_write>})

func.func @prologue(%ffts: i64) {
  hivm.hir.set_ffts_base_addr %ffts
  hivm.hir.set_ffts_base_addr {hivm.note = "again"} %ffts
  hivm.hir.set_mask_norm
  hivm.hir.set_mask_norm {hivm.note}
  hivm.hir.set_ctrl false at ctrl[60]
  hivm.hir.set_ctrl true at ctrl[48] {hivm.note}
  return
}

// -----

// load_scale moves an MX scale tensor from GM to L1; `is_transposed`
// prints only when true, `-> type` only with a tensor destination.

// CHECK-LABEL: func.func @scales
// CHECK-NEXT: hivm.hir.load_scale ins(%arg0 : memref<256x4xui8, #hivm.address_space<gm>>) outs(%arg1 : memref<256x4xui8, #hivm.address_space<cbuf>>)
// CHECK-NEXT: hivm.hir.load_scale ins(%arg0 : memref<256x4xui8, #hivm.address_space<gm>>) outs(%arg1 : memref<256x4xui8, #hivm.address_space<cbuf>>) is_transposed = true
// CHECK-NEXT: hivm.hir.load_scale ins(%arg0 : memref<256x4xui8, #hivm.address_space<gm>>) outs(%arg1 : memref<256x4xui8, #hivm.address_space<cbuf>>){{$}}
// CHECK-NEXT: hivm.hir.load_scale {hivm.note} ins(%arg0 : memref<256x4xui8, #hivm.address_space<gm>>) outs(%arg1 : memref<256x4xui8, #hivm.address_space<cbuf>>) is_transposed = true
// CHECK-NEXT: %0 = hivm.hir.load_scale ins(%arg0 : memref<256x4xui8, #hivm.address_space<gm>>) outs(%arg2 : tensor<256x4xui8>) -> tensor<256x4xui8>

// GENERIC-LABEL: sym_name = "scales"
// GENERIC: "hivm.hir.load_scale"(%arg0, %arg1) : (memref<256x4xui8, #hivm.address_space<gm>>, memref<256x4xui8, #hivm.address_space<cbuf>>) -> ()
// GENERIC-NEXT: "hivm.hir.load_scale"(%arg0, %arg1) <{is_transposed = true}> : (memref<256x4xui8, #hivm.address_space<gm>>, memref<256x4xui8, #hivm.address_space<cbuf>>) -> ()
// GENERIC-NEXT: "hivm.hir.load_scale"(%arg0, %arg1) <{is_transposed = false}> : (memref<256x4xui8, #hivm.address_space<gm>>, memref<256x4xui8, #hivm.address_space<cbuf>>) -> ()
// GENERIC-NEXT: "hivm.hir.load_scale"(%arg0, %arg1) <{is_transposed = true}> {hivm.note} : (memref<256x4xui8, #hivm.address_space<gm>>, memref<256x4xui8, #hivm.address_space<cbuf>>) -> ()
// GENERIC-NEXT: %0 = "hivm.hir.load_scale"(%arg0, %arg2) : (memref<256x4xui8, #hivm.address_space<gm>>, tensor<256x4xui8>) -> tensor<256x4xui8>
func.func @scales(%gm: memref<256x4xui8, #hivm.address_space<gm>>, %l1: memref<256x4xui8, #hivm.address_space<cbuf>>,
                  %t: tensor<256x4xui8>) -> tensor<256x4xui8> {
  hivm.hir.load_scale ins(%gm : memref<256x4xui8, #hivm.address_space<gm>>)
      outs(%l1 : memref<256x4xui8, #hivm.address_space<cbuf>>)
  hivm.hir.load_scale ins(%gm : memref<256x4xui8, #hivm.address_space<gm>>)
      outs(%l1 : memref<256x4xui8, #hivm.address_space<cbuf>>) is_transposed = true
  hivm.hir.load_scale ins(%gm : memref<256x4xui8, #hivm.address_space<gm>>)
      outs(%l1 : memref<256x4xui8, #hivm.address_space<cbuf>>) is_transposed = false
  hivm.hir.load_scale {hivm.note, is_transposed = true} ins(%gm : memref<256x4xui8, #hivm.address_space<gm>>)
      outs(%l1 : memref<256x4xui8, #hivm.address_space<cbuf>>)
  %r = hivm.hir.load_scale ins(%gm : memref<256x4xui8, #hivm.address_space<gm>>) outs(%t : tensor<256x4xui8>) -> tensor<256x4xui8>
  return %r : tensor<256x4xui8>
}

// -----

// mmadmxL1: the transpose flags print as keywords before `ins`, the data
// formats stay in the attribute dictionary, the bias is the ninth input.

// CHECK-LABEL: func.func @mx
// CHECK: hivm.hir.mmadmxL1 ins(%arg0, %arg1, %arg2, %arg3, %true, %c16, %c32, %c16 : memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>, memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%arg4 : memref<16x16xf32, #hivm.address_space<cc>>)
// CHECK-NEXT: hivm.hir.mmadmxL1 {lhsFormat = 1 : i32, rhsFormat = 2 : i32} a_transpose b_transpose ins(%arg0, %arg1, %arg2, %arg3, %true, %c16, %c32, %c16, %arg5 : memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>, memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index, memref<16xf32, #hivm.address_space<cbuf>>) outs(%arg4 : memref<16x16xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64, %c-1_i64, %c0_i64, %c-1_i64, %c-1_i64, %c-1_i64, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-NEXT: hivm.hir.mmadmxL1 {hivm.note} b_transpose ins(
// CHECK-NEXT: %0 = hivm.hir.mmadmxL1 ins(%arg6, %arg6, %arg7, %arg7, %false, %c16, %c32, %c16 : tensor<16x32xi8>, tensor<16x32xi8>, tensor<1xi8>, tensor<1xi8>, i1, index, index, index) outs(%arg8 : tensor<16x16xf32>) -> tensor<16x16xf32>

// GENERIC-LABEL: sym_name = "mx"
// GENERIC: "hivm.hir.mmadmxL1"(%arg0, %arg1, %arg2, %arg3, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg4) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}> : (memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>, memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index, memref<16x16xf32, #hivm.address_space<cc>>) -> ()
// GENERIC-NEXT: "hivm.hir.mmadmxL1"({{.*}}) <{a_transpose, b_transpose, lhsFormat = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 1>, rhsFormat = 2 : i32}>
// GENERIC-NEXT: "hivm.hir.mmadmxL1"({{.*}}) <{b_transpose, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}> {hivm.note}
// GENERIC-NEXT: = "hivm.hir.mmadmxL1"({{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}> : ({{.*}}, tensor<16x16xf32>) -> tensor<16x16xf32>
func.func @mx(%a: memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, %b: memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>,
              %sa: memref<16x1xui8, #hivm.address_space<cbuf>>, %sb: memref<1x16xi8, #hivm.address_space<cbuf>>,
              %c: memref<16x16xf32, #hivm.address_space<cc>>, %bias: memref<16xf32, #hivm.address_space<cbuf>>,
              %ta: tensor<16x32xi8>, %ts: tensor<1xi8>, %tc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %true = arith.constant true
  %false = arith.constant false
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c0_i64 = arith.constant 0 : i64
  %cm1_i64 = arith.constant -1 : i64
  hivm.hir.mmadmxL1 ins(%a, %b, %sa, %sb, %true, %c16, %c32, %c16 :
      memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>,
      memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index)
      outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.mmadmxL1 {rhsFormat = 2 : i32, lhsFormat = 1 : i32} a_transpose b_transpose
      ins(%a, %b, %sa, %sb, %true, %c16, %c32, %c16, %bias :
      memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>,
      memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index,
      memref<16xf32, #hivm.address_space<cbuf>>)
      outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
      sync_related_args(%c0_i64, %cm1_i64, %c0_i64, %cm1_i64, %cm1_i64, %cm1_i64, %cm1_i64, %cm1_i64 :
                        i64, i64, i64, i64, i64, i64, i64, i64)
  // The flags may also come in the attribute dictionary.
  hivm.hir.mmadmxL1 {b_transpose, hivm.note} ins(%a, %b, %sa, %sb, %true, %c16, %c32, %c16 :
      memref<16x32xf8E5M2, #hivm.address_space<cbuf>>, memref<32x16xf8E4M3FN, #hivm.address_space<cbuf>>,
      memref<16x1xui8, #hivm.address_space<cbuf>>, memref<1x16xi8, #hivm.address_space<cbuf>>, i1, index, index, index)
      outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
  %r = hivm.hir.mmadmxL1 ins(%ta, %ta, %ts, %ts, %false, %c16, %c32, %c16 :
      tensor<16x32xi8>, tensor<16x32xi8>, tensor<1xi8>, tensor<1xi8>, i1, index, index, index)
      outs(%tc : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

func.func @bad_memory_effect(
    // expected-error @+1 {{expected one of [read, write, read_write] for memory_effect, got 'readwrite'}}
    %a: memref<8xf32> {hivm.memory_effect = #hivm.memory_effect<readwrite>}) {
  return
}

// -----

func.func @mask_norm_operand(%a: i64) {
  // expected-error @+1 {{'hivm.hir.set_mask_norm' op requires zero operands}}
  "hivm.hir.set_mask_norm"(%a) : (i64) -> ()
  return
}

// -----

func.func @ffts_i32(%a: i32) {
  // expected-error @+1 {{'hivm.hir.set_ffts_base_addr' op operand #0 must be 64-bit signless integer, but got 'i32'}}
  "hivm.hir.set_ffts_base_addr"(%a) : (i32) -> ()
  return
}

// -----

func.func @ctrl_no_idx() {
  // expected-error @+1 {{'hivm.hir.set_ctrl' op requires attribute 'idx'}}
  "hivm.hir.set_ctrl"() <{enable = true}> : () -> ()
  return
}

// -----

func.func @ctrl_idx_i32() {
  // expected-error @+1 {{'hivm.hir.set_ctrl' op attribute 'idx' failed to satisfy constraint: 64-bit signless integer attribute}}
  "hivm.hir.set_ctrl"() <{enable = true, idx = 3 : i32}> : () -> ()
  return
}

// -----

func.func @ctrl_not_bool() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  hivm.hir.set_ctrl 1 at ctrl[3]
  return
}

// -----

func.func @scale_scalar(%a: i64, %l1: memref<4xui8>) {
  // expected-error @+1 {{'hivm.hir.load_scale' op operand #0 must be Tensor or Memref, but got 'i64'}}
  hivm.hir.load_scale ins(%a : i64) outs(%l1 : memref<4xui8>)
  return
}

// -----

func.func @scale_tensor_no_result(%gm: memref<4xui8>, %t: tensor<4xui8>) {
  // expected-error @+1 {{'hivm.hir.load_scale' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  hivm.hir.load_scale ins(%gm : memref<4xui8>) outs(%t : tensor<4xui8>)
  return
}

// -----

func.func @mx_f16(%a: memref<16xf16>, %s: memref<1xui8>, %c: memref<16xf32>, %t: i1, %i: index) {
  // expected-error @+1 {{'hivm.hir.mmadmxL1' op operand #0 must be Shaped Type, but got 'memref<16xf16>'}}
  hivm.hir.mmadmxL1 ins(%a, %a, %s, %s, %t, %i, %i, %i : memref<16xf16>, memref<16xf16>, memref<1xui8>, memref<1xui8>, i1, index, index, index) outs(%c : memref<16xf32>)
  return
}

// -----

func.func @mx_format(%a: memref<16xi8>, %s: memref<1xui8>, %c: memref<16xf32>, %t: i1, %i: index) {
  // expected-error @+1 {{'hivm.hir.mmadmxL1' op attribute 'lhsFormat' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2, 3}}
  hivm.hir.mmadmxL1 {lhsFormat = 4 : i32} ins(%a, %a, %s, %s, %t, %i, %i, %i : memref<16xi8>, memref<16xi8>, memref<1xui8>, memref<1xui8>, i1, index, index, index) outs(%c : memref<16xf32>)
  return
}

// -----

func.func @mx_result(%a: tensor<16xi8>, %s: tensor<1xui8>, %c: tensor<16xf32>, %t: i1, %i: index) {
  // expected-error @+1 {{'hivm.hir.mmadmxL1' op expected type of operand #8 (tensor<16xf32>) to match type of corresponding result (tensor<16xf16>)}}
  %r = hivm.hir.mmadmxL1 ins(%a, %a, %s, %s, %t, %i, %i, %i : tensor<16xi8>, tensor<16xi8>, tensor<1xui8>, tensor<1xui8>, i1, index, index, index) outs(%c : tensor<16xf32>) -> tensor<16xf16>
  return
}
