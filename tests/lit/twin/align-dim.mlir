// `align_dim` entries of a custom op's arg_attrs are checked when it runs, as
// upstream's hivm-mark-stride-align checks them for the NPU build: entry i is
// about operand i, whose rank the dim must be within.
// RUN: hivm-run %s --entry ok --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=OK
// RUN: not hivm-run %s --entry large --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not hivm-run %s --entry negative --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not hivm-run %s --entry past --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=PAST
// OK: [1, 1, 1, 1]
// LARGE: align-dim.mlir:[[@LINE+8]]:3: error: custom op 'bump': arg_attrs[0] align_dim = 1 of operand #0 (memref<4xf32>): align dim is too large.
// NEGATIVE: align-dim.mlir:[[@LINE+11]]:3: error: custom op 'bump': arg_attrs[0] align_dim = -1 of operand #0 (memref<4xf32>): a dim is not negative
// PAST: align-dim.mlir:[[@LINE+14]]:3: error: custom op 'bump': arg_attrs[1] align_dim: the op has only 1 operands
func.func @ok(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", arg_attrs = [{align_dim = 0 : i64}]} "bump" outs(%m : memref<4xf32>)
  return
}
func.func @large(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", arg_attrs = [{align_dim = 1 : i64}]} "bump" outs(%m : memref<4xf32>)
  return
}
func.func @negative(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", arg_attrs = [{align_dim = -1 : i64}]} "bump" outs(%m : memref<4xf32>)
  return
}
func.func @past(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump", arg_attrs = [{}, {align_dim = 0 : i64}]} "bump" outs(%m : memref<4xf32>)
  return
}
