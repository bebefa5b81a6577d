// RUN: hivm-opt %s -allow-unregistered-dialect -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: hivm-opt %s -allow-unregistered-dialect -cse | FileCheck %s --check-prefix=CSE

// An unused `no_side_effect` custom op is dead; one with effects never is.
// CANON-LABEL: func.func @dce
// CANON-NOT:     "user.pure"
// CANON:         "user.effectful"
// CANON-NOT:     "user.pure"
// CSE-LABEL: func.func @dce
// CSE:         "user.pure"
// CSE-NOT:       "user.pure"
// CSE-COUNT-2:   "user.effectful"
func.func @dce(%a: memref<4xf32>) {
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, no_side_effect, symbol = "p"} "user.pure" -> i32
  %1 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, no_side_effect, symbol = "p"} "user.pure" -> i32
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "e"} "user.effectful" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "e"} "user.effectful" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// Identical `no_side_effect` ops merge under CSE.
// CANON-LABEL: func.func @merge
// CSE-LABEL: func.func @merge
// CSE:         %[[V:.*]] = hivm.hir.custom {{.*}} "user.pure" -> i32
// CSE-NOT:     "user.pure"
// CSE:         return %[[V]], %[[V]]
func.func @merge() -> (i32, i32) {
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, no_side_effect, symbol = "p"} "user.pure" -> i32
  %1 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, no_side_effect, symbol = "p"} "user.pure" -> i32
  return %0, %1 : i32, i32
}
