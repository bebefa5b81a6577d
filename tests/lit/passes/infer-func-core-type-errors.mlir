// A recursive call loop has no core type to infer.
// RUN: hivm-opt %s --hivm-infer-func-core-type -verify-diagnostics

module {
  // expected-error @+1 {{cannot infer the core type of func.func @ping: recursive call loop}}
  func.func @ping() {
    func.call @pong() : () -> ()
    return
  }
  func.func @pong() {
    func.call @ping() : () -> ()
    return
  }
}
