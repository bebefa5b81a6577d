// A registered dialect names the attribute mnemonics it has; any other is
// reported where the mnemonic starts, as MLIR's dialect parsers do. String
// elements and numeric elements do not mix.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

func.func @llvm_unknown() {
  // expected-error@+1 {{unknown attribute `nonesuch` in dialect `llvm`}}
  "acme.op"() {a = #llvm.nonesuch<1>} : () -> ()
  return
}

// -----

func.func @llvm_known() {
  "acme.op"() {a = #llvm.linkage<internal>, b = #llvm.tailcallkind<tail>} : () -> ()
  return
}

// -----

func.func @hivm_unknown() {
  // expected-error@+1 {{unknown attribute `nonesuch` in dialect `hivm`}}
  "acme.op"() {a = #hivm.nonesuch} : () -> ()
  return
}

// -----

func.func @number_among_strings() {
  // expected-error@+1 {{expected string token, got 7}}
  "acme.op"() {a = dense<["a", -7]> : tensor<2x!acme.str>} : () -> ()
  return
}

// -----

func.func @string_among_floats() {
  // expected-error@+1 {{expected floating point literal}}
  "acme.op"() {a = dense<["a"]> : tensor<1xf32>} : () -> ()
  return
}
