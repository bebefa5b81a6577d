// A result count no op could have is an error, not an attempt to allocate
// the results (fuzzer find).
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @literal() {
  // expected-error@+1 {{too many results}}
  test.parse_integer_literal : 99999999999
  return
}

// -----

func.func @names() {
  // expected-error@+1 {{custom op 'test.string_attr_pretty_name' too many results}}
  %q:4000000000 = test.string_attr_pretty_name
  return
}
