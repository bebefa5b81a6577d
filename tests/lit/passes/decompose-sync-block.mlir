// A barrier across cores (hivm.hir.sync_block) becomes a pipe barrier on the
// core's own pipe followed by FFTS flag sets and waits.
// RUN: hivm-opt %s --split-input-file --hivm-decompose-op | FileCheck %s

// In a MIX module the cube first waits for its own vectors (flag 10), meets
// the other cubes (flag 13), then lets its vectors go (flag 11); the vectors
// set flag 10 and wait for flag 11. A flag_id is ignored in this mode.
// CHECK-LABEL: func.func @mix_cube(
// CHECK-SAME: %[[FFTS:[^:]+]]: i64
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_M>]
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_MTE1>] flag = 10{{$}}
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_M>, <PIPE_MTE1>] flag = 13 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_M>, <PIPE_MTE1>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_M>, <PIPE_MTE2>] flag = 11 ffts_base_addr = %[[FFTS]]{{$}}
// CHECK-NEXT: return
// CHECK-LABEL: func.func @mix_vector(
// CHECK-SAME: %[[FFTS:[^:]+]]: i64
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_MTE1>] flag = 10 ffts_base_addr = %[[FFTS]]{{$}}
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_M>, <PIPE_MTE2>] flag = 11{{$}}
// CHECK-NEXT: return
// CHECK-LABEL: func.func @mix_untyped(
// CHECK-NEXT: return
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mix_cube(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>, 3 : i64] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_M> cube_pipe = #hivm.pipe<PIPE_MTE1> tvector_pipe = #hivm.pipe<PIPE_V> vector_pipe = #hivm.pipe<PIPE_MTE2>
    return
  }
  func.func @mix_vector(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_M> cube_pipe = #hivm.pipe<PIPE_MTE1> tvector_pipe = #hivm.pipe<PIPE_V> vector_pipe = #hivm.pipe<PIPE_MTE2>
    return
  }
  // Neither side: the op just goes away.
  func.func @mix_untyped(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_M> tvector_pipe = #hivm.pipe<PIPE_V>
    return
  }
}

// -----

// PIPE_ALL stays on the barrier; the flag's set side becomes the core's last
// pipe (FIX for cube, MTE3 for vector) and the wait side the scalar pipe.
// CHECK-LABEL: func.func @mix_cube_all_pipes(
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_S>] flag = 10{{$}}
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 ffts_base_addr = %{{.*}} sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 11 ffts_base_addr = %{{.*}}{{$}}
// CHECK-LABEL: func.func @mix_vector_all_pipes(
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 10 ffts_base_addr = %{{.*}}{{$}}
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 11{{$}}
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mix_cube_all_pipes(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_ALL> tvector_pipe = #hivm.pipe<PIPE_ALL>
    return
  }
  func.func @mix_vector_all_pipes(%ffts: i64) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_ALL> tvector_pipe = #hivm.pipe<PIPE_ALL>
    return
  }
}

// -----

// Outside a MIX module, ALL only meets the same kind of core in other blocks
// (flag 13 for cubes, 12 for vectors); without ffts_base_addr the set has none.
// CHECK-LABEL: func.func @cube_only(
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_FIX>]
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 13 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @vector_only(
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 12 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @no_core_type(
// CHECK-NEXT: return
module attributes {hivm.module_core_type = #hivm.module_core_type<AIC>} {
  func.func @cube_only() attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] tcube_pipe = #hivm.pipe<PIPE_FIX> tvector_pipe = #hivm.pipe<PIPE_MTE3>
    return
  }
  func.func @vector_only() attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] tcube_pipe = #hivm.pipe<PIPE_FIX> tvector_pipe = #hivm.pipe<PIPE_ALL>
    return
  }
  func.func @no_core_type() {
    hivm.hir.sync_block[#hivm.sync_block_mode<ALL>] tcube_pipe = #hivm.pipe<PIPE_FIX> tvector_pipe = #hivm.pipe<PIPE_MTE3>
    return
  }
}

// -----

// One kind of core across blocks: default flags 15 (cube) and 14 (vector),
// or the op's own flag_id, kept with its type; the sub-block form syncs the
// two vectors of one block. The core type of the function does not matter.
// CHECK-LABEL: func.func @one_kind(
// CHECK-SAME: %[[FFTS:[^:]+]]: i64
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_FIX>]
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 15 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_FIX>] flag = 15 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 4 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 4 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_MTE3>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE3>] flag = 14 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE3>] flag = 14 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 7 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 7 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_MTE2>] flag = 14 ffts_base_addr = %[[FFTS]] sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_V>, <PIPE_MTE2>] flag = 14 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 2 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 2 sync_instr_mode = <INTER_SUBBLOCK_SYNCHRONIZATION>
// CHECK-NEXT: return
func.func @one_kind(%ffts: i64) {
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_FIX>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>, 4 : i16] ffts_base_addr = %ffts tcube_pipe = #hivm.pipe<PIPE_ALL> cube_pipe = #hivm.pipe<PIPE_MTE2>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_MTE3>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>, 7 : i64] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_ALL>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>] ffts_base_addr = %ffts tvector_pipe = #hivm.pipe<PIPE_V> vector_pipe = #hivm.pipe<PIPE_MTE2>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_SUB_VECTOR>, 2 : i32] tvector_pipe = #hivm.pipe<PIPE_ALL>
  return
}

// -----

// The barrier modes wait for every pipe of the core and set no flag; ops
// inside loops are lowered too.
// CHECK-LABEL: func.func @barriers(
// CHECK: arith.constant 1
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: scf.for
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: }
// CHECK-NOT: sync_block
func.func @barriers(%n: index) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_CUBE>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.sync_block[#hivm.sync_block_mode<BARRIER_VECTOR>]
  }
  return
}

// -----

// Host code and outlined vector functions are left alone.
// CHECK-LABEL: func.func @host(
// CHECK-NEXT: hivm.hir.sync_block[<ALL_CUBE>]
// CHECK-LABEL: func.func @vf(
// CHECK-NEXT: hivm.hir.sync_block[<ALL_VECTOR>]
func.func @host() attributes {hacc.function_kind = #hacc.function_kind<HOST>} {
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_CUBE>] tcube_pipe = #hivm.pipe<PIPE_FIX>
  return
}
func.func @vf() attributes {hivm.vector_function} {
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL_VECTOR>] tvector_pipe = #hivm.pipe<PIPE_V>
  return
}
