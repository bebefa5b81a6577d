// hfusion's attributes, as HIVM kernels carry them: enums are validated and
// printed canonically; markers take no parameters.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: hfusion.fusion_kind = #hfusion.fusion_kind<PURE_ELEMWISE>
// CHECK: "test.op"() {fun = #hfusion.binary_fn<vor>, mode = #hfusion.round_mode<rint>, pred = #hfusion.compare_fn<vle>, unary = #hfusion.unary_fn<sqrt>} : () -> ()
// CHECK: "test.op"() {hfusion.multi_buffer, kind = #hfusion.type_fn<cast_signed>} : () -> ()
func.func @kernel() attributes {hfusion.fusion_kind = #hfusion.fusion_kind< PURE_ELEMWISE >} {
  "test.op"() {fun = #hfusion.binary_fn<vor>, mode = #hfusion.round_mode<rint>, pred = #hfusion.compare_fn<vle>, unary = #hfusion.unary_fn<sqrt>} : () -> ()
  "test.op"() {kind = #hfusion.type_fn<cast_signed>, hfusion.multi_buffer} : () -> ()
  return
}

// -----

func.func @bad_kind() {
  // expected-error @+1 {{expected one of [veq, vne, vle, vlt, vge, vgt, vule, vult, vuge, vugt] for compare_fn, got 'vlq'}}
  "test.op"() {pred = #hfusion.compare_fn<vlq>} : () -> ()
  return
}

// -----

func.func @unknown_mnemonic() {
  // expected-error @+1 {{unknown attribute `binary_fun` in dialect `hfusion`}}
  "test.op"() {pred = #hfusion.binary_fun<vor>} : () -> ()
  return
}
