// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed LLVM memory-model ops and intrinsics (this file gives the same
// diagnostics with mlir-opt 22).

llvm.func @fence_monotonic() {
  // expected-error@+1 {{'llvm.fence' op can be given only acquire, release, acq_rel, and seq_cst orderings}}
  llvm.fence monotonic
  llvm.return
}

// -----

llvm.func @fence_unknown() {
  // expected-error@+1 {{custom op 'llvm.fence' expected string or keyword containing one of the following enum values for attribute 'ordering' [not_atomic, unordered, monotonic, acquire, release, acq_rel, seq_cst]}}
  llvm.fence consume
  llvm.return
}

// -----

llvm.func @rmw_float_op_on_int(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected LLVM IR floating point type}}
  %0 = llvm.atomicrmw fsub %p, %v monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @rmw_int_op_on_float(%p: !llvm.ptr, %v: f32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected LLVM IR integer type}}
  %0 = llvm.atomicrmw max %p, %v monotonic : !llvm.ptr, f32
  llvm.return
}

// -----

llvm.func @rmw_unordered(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.atomicrmw' op expected at least 'monotonic' ordering}}
  %0 = llvm.atomicrmw add %p, %v unordered : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @xchg_odd_width(%p: !llvm.ptr, %v: i24) {
  // expected-error@+1 {{'llvm.atomicrmw' op unexpected LLVM IR type for 'xchg' bin_op}}
  %0 = llvm.atomicrmw xchg %p, %v monotonic : !llvm.ptr, i24
  llvm.return
}

// -----

llvm.func @cmpxchg_failure_release(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.cmpxchg' op failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %v, %v acq_rel release : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @cmpxchg_weak_ordering(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.cmpxchg' op ordering must be at least 'monotonic'}}
  %0 = llvm.cmpxchg %p, %v, %v unordered monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @atomic_load_unaligned(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op expected alignment for atomic access}}
  %0 = llvm.load %p atomic acquire : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @atomic_load_release(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op unsupported ordering 'release'}}
  %0 = llvm.load %p atomic release {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @atomic_store_struct(%p: !llvm.ptr, %v: vector<4xi32>) {
  // expected-error@+1 {{'llvm.store' op unsupported type 'vector<4xi32>' for atomic access}}
  llvm.store %v, %p atomic release {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @syncscope_not_atomic(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.store' op expected syncscope to be null for non-atomic access}}
  "llvm.store"(%v, %p) <{syncscope = "agent"}> : (i32, !llvm.ptr) -> ()
  llvm.return
}

// -----

llvm.func @shuffle_scalable(%v: vector<[4]xf32>) {
  // expected-error@+1 {{'llvm.shufflevector' op expected a splat operation for scalable vectors}}
  %0 = llvm.shufflevector %v, %v [0, 1] : vector<[4]xf32>
  llvm.return
}

// -----

llvm.func @typeid_not_pointer(%v: i64) {
  // expected-error@+1 {{'llvm.intr.eh.typeid.for' op operand #0 must be LLVM pointer type, but got 'i64'}}
  %0 = llvm.intr.eh.typeid.for %v : (i64) -> i32
  llvm.return
}

// -----

llvm.func @rounding_unknown(%d: f64) {
  // expected-error@+1 {{custom op 'llvm.intr.experimental.constrained.fptrunc' expected string or keyword containing one of the following enum values for attribute 'roundingmode' [towardzero, tonearest, upward, downward, tonearestaway, dynamic, invalid]}}
  %0 = llvm.intr.experimental.constrained.fptrunc %d nearest strict : f64 to f32
  llvm.return
}

// -----

llvm.func @rounding_invalid(%d: f64) {
  // expected-error@+1 {{'llvm.intr.experimental.constrained.fptrunc' op attribute 'roundingmode' failed to satisfy constraint: LLVM Rounding Mode whose minimum value is 0}}
  %0 = llvm.intr.experimental.constrained.fptrunc %d invalid strict : f64 to f32
  llvm.return
}

// -----

llvm.func @insert_scalable_into_fixed(%a: vector<[2]xi8>, %b: vector<8xi8>) {
  // expected-error@+1 {{'llvm.intr.vector.insert' op failed to verify that it is not inserting scalable into fixed-length vectors.}}
  %0 = llvm.intr.vector.insert %a, %b[0] : vector<[2]xi8> into vector<8xi8>
  llvm.return
}

// -----

llvm.func @interleave_length(%a: vector<4xi8>) {
  // expected-error@+1 {{'llvm.intr.vector.interleave2' op failed to verify that result has twice as many elements as 'vec1'}}
  %0 = "llvm.intr.vector.interleave2"(%a, %a) : (vector<4xi8>, vector<4xi8>) -> vector<4xi8>
  llvm.return
}
