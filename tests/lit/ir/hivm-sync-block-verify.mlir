// What each sync_block mode must and must not name: the cube's pipes (t)cube_pipe,
// the vector's (t)vector_pipe, each a pipe of its core (S and MTE2 fit
// both), in upstream's words.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @fine
func.func @fine() {
  // CHECK: hivm.hir.sync_block[<ALL>] tcube_pipe = <PIPE_FIX> cube_pipe = <PIPE_S> tvector_pipe = <PIPE_MTE3> vector_pipe = <PIPE_MTE2>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] tcube_pipe = #hivm.pipe<PIPE_FIX> cube_pipe = #hivm.pipe<PIPE_S> tvector_pipe = #hivm.pipe<PIPE_MTE3> vector_pipe = #hivm.pipe<PIPE_MTE2>
  // CHECK: hivm.hir.sync_block[<BARRIER_VECTOR>]
  hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_VECTOR>]
  return
}

// -----
func.func @all_needs_both() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tvector_pipe should be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] tcube_pipe = #hivm.pipe<PIPE_FIX>
  return
}

// -----
func.func @cube_needs_its_pipe() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tcube_pipe should be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>]
  return
}

// -----
func.func @cube_pipe_of_the_vector() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tcube_pipe of should match CUBE core type!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] tcube_pipe = #hivm.pipe<PIPE_V>
  return
}

// -----
func.func @vector_pipe_of_the_cube() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tvector_pipe of ALL_VECTOR should match VECTOR core type!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>] tvector_pipe = #hivm.pipe<PIPE_FIX>
  return
}

// -----
func.func @barrier_names_no_pipe() {
  // expected-error @+1 {{'hivm.hir.sync_block' op tcube_pipe should not be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_CUBE>] tcube_pipe = #hivm.pipe<PIPE_FIX>
  return
}

// -----
func.func @vector_mode_names_no_cube_pipe() {
  // expected-error @+1 {{'hivm.hir.sync_block' op cube_pipe should not be defined!}}
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>] cube_pipe = #hivm.pipe<PIPE_S> tvector_pipe = #hivm.pipe<PIPE_MTE3>
  return
}
