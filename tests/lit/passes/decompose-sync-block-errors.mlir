// A sync_block missing the pipe its mode needs cannot be lowered (upstream
// reads the absent attribute and crashes; its verifier normally rejects such
// an op first).
// RUN: hivm-opt %s --split-input-file --hivm-decompose-op -verify-diagnostics

func.func @all_without_vector_pipe(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
  // expected-error @+1 {{'hivm.hir.sync_block' op tvector_pipe should be defined for this sync_block_mode}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX>
  return
}

// -----

func.func @cube_without_cube_pipe() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tcube_pipe should be defined for this sync_block_mode}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] cube_pipe = #hivm.pipe<PIPE_FIX>
  return
}

// -----

func.func @sub_vector_without_pipe() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tvector_pipe should be defined for this sync_block_mode}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>, 3 : i64]
  return
}

// -----

func.func @flag_not_an_integer() {
  // expected-error @+1 {{'hivm.hir.sync_block' op flag_id must be an integer attribute}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>, "three"] tvector_pipe = #hivm.pipe<PIPE_V>
  return
}
