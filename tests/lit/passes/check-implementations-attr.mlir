// A file named by an op's `bitcode` attribute must exist and define the entry.
// RUN: cd %S && not hivm-opt %s -split-input-file -hivm-check-implementations 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: cd %S && hivm-opt %s -split-input-file -hivm-check-implementations -verify-diagnostics -o /dev/null


// ATTR: check-implementations-attr.mlir:[[@LINE+3]]:3: error: 'hivm.hir.custom' op implementation file 'Inputs/missing.bc' does not exist
func.func @missing_file(%a: memref<32xi32>) {
  // expected-error @+1 {{implementation file 'Inputs/missing.bc' does not exist}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "custom_add_int32", bitcode = "Inputs/missing.bc"} "add" ins(%a : memref<32xi32>) outs(%a : memref<32xi32>)
  return
}

// -----

// ATTR: check-implementations-attr.mlir:[[@LINE+3]]:3: error: 'hivm.hir.custom' op implementation '_mlir_ciface_custom_sub_int32' is not defined; searched Inputs/custom_add.bc
func.func @undefined(%a: memref<32xi32>) {
  // expected-error @+1 {{implementation '_mlir_ciface_custom_sub_int32' is not defined}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "custom_sub_int32", bitcode = "Inputs/custom_add.bc"} "sub" ins(%a : memref<32xi32>) outs(%a : memref<32xi32>)
  return
}
