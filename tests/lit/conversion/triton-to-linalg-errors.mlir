// Forms outside what triton-to-linalg converts are errors at the op, never a guess.
// RUN: hivm-opt %s --split-input-file --triton-to-linalg -verify-diagnostics

// A gathered load: the offsets come from memory, so there is no strided block.
tt.func @gather(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %o: !tt.ptr<f32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %ip = tt.addptr %is, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  // expected-error @+1 {{'tt.load' op as an address offset is not supported by triton-to-linalg yet}}
  %j = tt.load %ip : tensor<16x!tt.ptr<i32>>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %j : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %xp : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A mask comparing two ranges has no box.
tt.func @two_ranges(%x: !tt.ptr<f32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %s = tt.make_range {end = 32 : i32, start = 16 : i32} : tensor<16xi32>
  // expected-error @+1 {{'arith.cmpi' op (a comparison other than range against scalar) in a mask is not supported by triton-to-linalg yet}}
  %m = arith.cmpi slt, %r, %s : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %xp, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// An op the conversion does not know.
tt.func @histogram(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.histogram' op is not supported by triton-to-linalg yet}}
  %h = tt.histogram %x : tensor<16xi32> -> tensor<4xi32>
  tt.return
}
