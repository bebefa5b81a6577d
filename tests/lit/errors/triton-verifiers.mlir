// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Malformed Triton ops, layouts and types: each gives a located diagnostic.

tt.func @load_not_ptr(%x: i32) {
  // expected-error@+1 {{'tt.load' expects a pointer or a tensor of pointers, got 'i32'}}
  %0 = tt.load %x : i32
  tt.return
}
// -----
tt.func @range_count() {
  // expected-error@+1 {{'tt.make_range' op number of elements in returned tensor, N, must be end - start}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}
// -----
tt.func @range_elem() {
  // expected-error@+1 {{'tt.make_range' op returned tensor must have i32 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}
// -----
tt.func @bcast(%t: tensor<2x4xf32>) {
  // expected-error@+1 {{'tt.broadcast' op Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %t : tensor<2x4xf32> -> tensor<4x4xf32>
  tt.return
}
// -----
tt.func @trans(%t: tensor<2x4xf32>) {
  // expected-error@+1 {{'tt.trans' op order must be a permutation of 0..2, got [0, 0]}}
  %0 = tt.trans %t {order = array<i32: 0, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
  tt.return
}
// -----
tt.func @expand(%t: tensor<4xf32>) {
  // expected-error@+1 {{'tt.expand_dims' op inferred shape [1, 4] is incompatible with the result shape [4, 1]}}
  %0 = tt.expand_dims %t {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tt.return
}
// -----
tt.func @reshape(%t: tensor<4xf32>) {
  // expected-error@+1 {{'tt.reshape' op number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %t : tensor<4xf32> -> tensor<2x4xf32>
  tt.return
}
// -----
tt.func @dot(%a: tensor<16x8xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error@+1 {{'tt.dot' op expected the K dimensions to match, got 8 and 16}}
  %0 = tt.dot %a, %b, %c : tensor<16x8xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}
// -----
tt.func @splat(%x: f32) {
  // expected-error@+1 {{'tt.splat' op result #0 must be ranked tensor of floating-point or integer or ptr values, but got 'f32'}}
  %0 = tt.splat %x : f32 -> f32
  tt.return
}
// -----
tt.func @addptr(%x: i32) {
  // expected-error@+1 {{'tt.addptr' op operand #0 must be ptr or ranked tensor of ptr values, but got 'i32'}}
  %0 = tt.addptr %x, %x : i32, i32
  tt.return
}
// -----
tt.func @store_mismatch(%p: !tt.ptr<f32>, %v: f16) {
  // expected-error@+1 {{'tt.store' op failed to verify that value type matches ptr type}}
  "tt.store"(%p, %v) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<f32>, f16) -> ()
  tt.return
}
// -----
tt.func @bitcast(%x: i32) {
  // expected-error@+1 {{'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 16}}
  %0 = tt.bitcast %x : i32 -> f16
  tt.return
}
// -----
tt.func @ret_count(%x: i32) -> i32 {
  // expected-error@+1 {{'tt.return' op has 0 operands, but enclosing function (@ret_count) returns 1}}
  tt.return
}
// -----
tt.func @reduce_args(%t: tensor<8xf32>) {
  // expected-error@+1 {{'tt.reduce' op nested block must take 2 arguments, but given block with 1 arguments}}
  %0 = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}
// -----
tt.func @reduce_result(%t: tensor<8x4xf32>) {
  // expected-error@+1 {{'tt.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  %0 = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8x4xf32>) -> tensor<8xf32>
  tt.return
}
// -----
tt.func @reduce_return(%t: tensor<8xf32>) {
  // expected-error@+1 {{'tt.reduce' op type mismatch on combine operation. Expected argument 0 to have type f32 but got i32}}
  %0 = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    tt.reduce.return %c : i32
  }) : (tensor<8xf32>) -> f32
  tt.return
}
// -----
tt.func @call_missing(%x: i32) {
  // expected-error@+1 {{'tt.call' op 'nowhere' does not reference a valid function}}
  %0 = tt.call @nowhere(%x) : (i32) -> i32
  tt.return
}
// -----
func.func @return_outside() {
  // expected-error@+1 {{'tt.return' op expects parent op 'tt.func'}}
  tt.return
}
// -----
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sm = #ttg.shared_memory
tt.func @store_immutable(%t: tensor<8xf32>, %m: !ttg.memdesc<8xf32, #sw, #sm>) {
  // expected-error@+1 {{'ttg.local_store' op Cannot store into immutable memory}}
  ttg.local_store %t, %m : tensor<8xf32> -> !ttg.memdesc<8xf32, #sw, #sm>
  tt.return
}
// -----
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sm = #ttg.shared_memory
tt.func @alloc_immutable() {
  // expected-error@+1 {{'ttg.local_alloc' op uninitialized alloc must have a mutable memdesc type}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<8xf32, #sw, #sm>
  tt.return
}
// -----
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sm = #ttg.shared_memory
tt.func @load_elem(%m: !ttg.memdesc<8xf32, #sw, #sm>) {
  // expected-error@+1 {{'ttg.local_load' op result element type must match desc element type}}
  %0 = ttg.local_load %m : !ttg.memdesc<8xf32, #sw, #sm> -> tensor<8xf16>
  tt.return
}
// -----
// expected-error@+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [1, 1], order = [1, 0]}>
// -----
// expected-error@+1 {{CTAsPerCGA, CTASplitNum, and CTAOrder must all be present or all be absent}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0], CTAOrder = [0]}>
// -----
// expected-error@+1 {{slice dim=2 must be less than the parent rank=2}}
#s = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>}>
// -----
// expected-error@+1 {{fractal block must be power-of-2}}
#f = #ttgext.fractal_shared<{fractalM0 = 12, fractalN0 = 16, layoutType = "zN"}>
// -----
// expected-error@+1 {{unknown layoutType: expected 'zN' or 'nZ'}}
#f = #ttgext.fractal_shared<{fractalM0 = 16, fractalN0 = 16, layoutType = "zZ"}>
// -----
// expected-error@+1 {{unknown attribute `wavy` in dialect `ttg`}}
#x = #ttg.wavy<{}>
// -----
// expected-error@+1 {{expected non-function type}}
tt.func @bad_ptr(%p: !tt.ptr<foo>) {
  tt.return
}
// -----
// expected-error@+1 {{shape must have power-of-2 and non-zero dimensions; got [8, 3]}}
tt.func @bad_memdesc(%m: !ttg.memdesc<8x3xf32, #ttg.shared_memory, #ttg.shared_memory>) {
  tt.return
}
// -----
tt.func @ll(%x: tensor<8xi1>, %y: tensor<8xi32>) {
  %0 = tt.histogram %y, %x : tensor<8xi32> -> tensor<4xi32>
  // expected-error@+1 {{'tt.unsplat' op source tensor must have exactly one element}}
  %1 = tt.unsplat %y : tensor<8xi32>
  tt.return
}
