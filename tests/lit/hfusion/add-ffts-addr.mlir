// Triton kernels get the FFTS base address in front when forced; mixed
// fusion kinds always; a call passes its caller's address on.
// RUN: hivm-opt %s --split-input-file --hfusion-add-ffts-addr="force-add-ffts-addr=0" | FileCheck %s --check-prefix=FORCE
// RUN: hivm-opt %s --split-input-file --hfusion-add-ffts-addr | FileCheck %s --check-prefix=KIND

// FORCE-LABEL: func.func @kernel(%{{.*}}: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %{{.*}}: memref<?xi8>
// KIND-LABEL: func.func @kernel(%{{.*}}: memref<?xi8>
func.func @kernel(%ws: memref<?xi8>, %n: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  return
}

// -----

// FORCE-LABEL: func.func @callee(%{{.*}}: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %{{.*}}: i32)
// FORCE-LABEL: func.func @caller(
// FORCE-SAME: %[[F:[^:]+]]: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %[[X:[^:]+]]: i32)
// FORCE: call @callee(%[[F]], %[[X]]) : (i64, i32) -> ()
// KIND-LABEL: func.func @callee(%{{.*}}: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %{{.*}}: i32)
// KIND-LABEL: func.func @caller(
// KIND-SAME: %[[F:[^:]+]]: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %[[X:[^:]+]]: i32)
// KIND: call @callee(%[[F]], %[[X]]) : (i64, i32) -> ()
func.func @callee(%x: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hfusion.fusion_kind = #hfusion.fusion_kind<MIX_CV>} {
  return
}
func.func @caller(%x: i32) {
  func.call @callee(%x) : (i32) -> ()
  return
}
