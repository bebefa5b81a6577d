// RUN: hivm-opt -split-input-file -verify-diagnostics %s
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: verifier.mlir:[[@LINE+3]]:3: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f
// CHECK-NEXT: return %a : i32
func.func @f(%a: i32) -> i64 {
  return %a : i32 // expected-error {{type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f}}
}
// CHECK: note: see current operation: "func.return"(%arg0) : (i32) -> ()

// -----

func.func @g(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %a, %a : f32
  return %0 : f32
}

// -----

func.func @h() {
  // expected-error @+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  func.call @nowhere() : () -> ()
  return
}

// -----

func.func @k() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  return
}

// -----

func.func @cond_br_weights(%c: i1) {
  // expected-error@+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  cf.cond_br %c weights([3, 5, 6]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

func.func @rank0_memref(%m: memref<2x1xf32>) -> memref<f32> {
  // expected-error@+1 {{rank 0 memrefs can only be extended/collapsed with/from ones}}
  %a = memref.collapse_shape %m [] : memref<2x1xf32> into memref<f32>
  return %a : memref<f32>
}

// -----

func.func @get_global_missing() {
  // expected-error@+1 {{'nowhere' does not reference a valid global memref}}
  %g = memref.get_global @nowhere : memref<2xf32>
  return
}

// -----

func.func @assume_alignment(%m: memref<4xf32>) {
  // expected-error@+1 {{alignment must be power of 2}}
  %a = memref.assume_alignment %m, 12 : memref<4xf32>
  return
}

// -----

func.func @from_elements(%a: f32) {
  // expected-error@+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %t = tensor.from_elements %a : tensor<2xf32>
  return
}

// -----

func.func @workspace_sizes(%ws: memref<?xi8>) {
  // expected-error@+1 {{'memref_ext.alloc_workspace' op dimension operand count does not equal memref dynamic dimension count}}
  %b = memref_ext.alloc_workspace() from %ws : from memref<?xi8> to memref<?x16xf16>
  return
}

// -----

func.func @scope_return(%a: i32) {
  // The edge into the parent's results is checked on the scope, after its body.
  // expected-error@+1 {{'scope.scope' op  along control flow edge from Region #0 to parent results: source type #0 'i32' should match input type #0 'i64'}}
  %r = scope.scope : () -> i64 {
    scope.return %a : i32
  }
  return
}

// -----

func.func @scope_return_count(%a: i32) {
  // expected-error@+1 {{'scope.scope' op  region control flow edge from Region #0 to parent results: source has 1 operands, but target successor needs 0}}
  scope.scope : () -> () {
    scope.return %a : i32
  }
  return
}

// -----

func.func @scope_return_outside(%a: i32) {
  // The parent is checked before the terminator's position.
  // expected-error@+1 {{'scope.return' op expects parent op 'scope.scope'}}
  scope.return %a : i32
  return
}

// -----

func.func @sync_block_without_flag() {
  // expected-error@+1 {{'hivm.hir.sync_block_wait' op Flag ID is needed!}}
  "hivm.hir.sync_block_wait"() <{pipe = #hivm.pipe<PIPE_V>, tcore_type = #hivm.tcore_type<VECTOR>, tpipe = #hivm.pipe<PIPE_FIX>}> : () -> ()
  return
}

// -----

func.func @sync_block_flag_range() {
  // expected-error@+1 {{custom op 'hivm.hir.sync_block_set' integer value too large}}
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 99999999999999999999
  return
}

// -----

// A unit dim whose stride the result does not keep cannot be the one dropped.
func.func @subview_rank_reduction_strides(%m: memref<2x1xf32, strided<[4, 1], offset: ?>>) {
  // expected-error@+1 {{expected result type to be 'memref<1x1xf32, strided<[4, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<1xf32, strided<[2], offset: ?>>'}}
  %0 = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<2x1xf32, strided<[4, 1], offset: ?>> to memref<1xf32, strided<[2], offset: ?>>
  return
}
