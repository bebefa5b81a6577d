// A dialect type or attribute needs a dialect name before its dot (fuzzer
// find: `!.` was read and printed as `!<>`, which does not read back).
// RUN: hivm-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{invalid dialect namespace '""'}}
func.func @type(%a: !.) {
  return
}

// -----

func.func @attr() {
  // expected-error@+1 {{invalid dialect namespace '""'}}
  "acme.op"() {t = #.x} : () -> ()
  return
}
