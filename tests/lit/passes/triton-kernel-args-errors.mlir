// RUN: hivm-opt %s --split-input-file --triton-global-kernel-args-to-hivm-op -verify-diagnostics

// Five trailing i32 parameters are one short of a launch grid.
// expected-error @+1 {{arguments program id or program num are missing}}
func.func @short(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  return
}

// -----

// An index among the six grid parameters is not an i32.
// expected-error @+1 {{incompatible types of arguments program id or program num}}
func.func @wrong_type(%a: i32, %b: i32, %c: index, %d: i32, %e: i32, %f: i32) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
  return
}
