// A sync_block whose flag id is not an integer cannot be lowered. (A missing
// pipe its mode needs is the verifier's: ir/hivm-sync-block-verify.mlir.)
// RUN: hivm-opt %s --split-input-file --hivm-decompose-op -verify-diagnostics

func.func @flag_not_an_integer() {
  // expected-error @+1 {{'hivm.hir.sync_block' op flag_id must be an integer attribute}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>, "three"] tvector_pipe = #hivm.pipe<PIPE_V>
  return
}
