// DIFF-ARGS: -one-shot-bufferize -split-input-file
// One-Shot Bufferize with default options on the upstream ops our kernels use.

// Fresh buffers for tensor.empty, in-place writes into writable buffers,
// out-of-place writes (with no copy: fill does not read its out) into
// read-only function arguments, and a to_tensor kept for the return.
func.func @fill_paths(%arg0: memref<256xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %in = bufferization.to_tensor %arg0 restrict writable : memref<256xf32> to tensor<256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %i = arith.constant 3 : index
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %g = linalg.fill ins(%c : f32) outs(%in : tensor<256xf32>) -> tensor<256xf32>
  %h = linalg.fill ins(%c : f32) outs(%arg1 : tensor<8xf32>) -> tensor<8xf32>
  bufferization.materialize_in_destination %g in writable %arg0 : (tensor<256xf32>, memref<256xf32>) -> ()
  %x = tensor.extract %f[%i] : tensor<256xf32>
  memref.store %x, %arg0[%i] : memref<256xf32>
  return %h : tensor<8xf32>
}

// -----

// A value read after it is overwritten forces the write out of place.
func.func @read_after_write(%m: memref<4x8xi32>) -> i32 {
  %t = bufferization.to_tensor %m restrict writable : memref<4x8xi32> to tensor<4x8xi32>
  %e = tensor.empty() : tensor<4x8xi32>
  %c = arith.constant 7 : i32
  %z = arith.constant 0 : index
  %f = linalg.fill ins(%c : i32) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  %g = linalg.fill ins(%c : i32) outs(%f : tensor<4x8xi32>) -> tensor<4x8xi32>
  %a = tensor.extract %f[%z, %z] : tensor<4x8xi32>
  %b = tensor.extract %g[%z, %z] : tensor<4x8xi32>
  %s = arith.addi %a, %b : i32
  bufferization.materialize_in_destination %g in writable %m : (tensor<4x8xi32>, memref<4x8xi32>) -> ()
  return %s : i32
}

// -----

// A read-only tensor argument that is read: its buffer comes from to_buffer.
func.func @read_arg(%arg0: tensor<4xf32>, %i: index) -> f32 {
  %x = tensor.extract %arg0[%i] : tensor<4xf32>
  return %x : f32
}

// -----

// Slices are subviews: a read through one, and an insert that writes in
// place through a subview with a dynamic offset.
func.func @slices(%m: memref<16x8xf32>, %i: index) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<16x8xf32> to tensor<16x8xf32>
  %c = arith.constant 2.0 : f32
  %s = tensor.extract_slice %t[4, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %g = linalg.fill ins(%c : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %x = tensor.extract %s[%i, %i] : tensor<4x8xf32>
  %r = tensor.insert_slice %g into %t[%i, 0] [2, 8] [2, 1] : tensor<2x8xf32> into tensor<16x8xf32>
  bufferization.materialize_in_destination %r in writable %m : (tensor<16x8xf32>, memref<16x8xf32>) -> ()
  return %x : f32
}


// -----

// Reshapes of identity-layout buffers are memref reshapes.
func.func @reshape(%m: memref<2x4xf32>, %n: memref<8xf32>, %k: index) -> f32 {
  %t = bufferization.to_tensor %m restrict : memref<2x4xf32> to tensor<2x4xf32>
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = arith.constant 1.0 : f32
  %g = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.expand_shape %g [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %i = arith.constant 1 : index
  %a = tensor.extract %c[%i] : tensor<8xf32>
  %b = tensor.extract %x[%i, %i] : tensor<4x2xf32>
  %s = arith.addf %a, %b : f32
  return %s : f32
}

// -----

// Reads of outer tensors inside loops are loads from their buffers.
func.func @loop_reads(%m: memref<8xf32>, %o: memref<8xf32>, %n: index) {
  %t = bufferization.to_tensor %m restrict : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = tensor.extract %t[%i] : tensor<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %o[%i] : memref<8xf32>
  }
  return
}

// -----

// Reads inside a loop count at the loop: a later write may reuse a buffer
// read there, not one read again afterwards.
func.func @loop_then_write(%m: memref<8xf32>, %n: index) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (f32) {
    %x = tensor.extract %t[%i] : tensor<8xf32>
    %y = tensor.extract %f[%i] : tensor<8xf32>
    %z = arith.addf %x, %y : f32
    %w = arith.addf %acc, %z : f32
    scf.yield %w : f32
  }
  %g = linalg.fill ins(%s : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %h = linalg.fill ins(%s : f32) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  %u = tensor.extract %f[%c0] : tensor<8xf32>
  bufferization.materialize_in_destination %g in writable %m : (tensor<8xf32>, memref<8xf32>) -> ()
  return %u : f32
}

// -----

// scf.if with a tensor result: branches forward buffers.
func.func @sel(%m: memref<8xf32>, %c: i1, %f: f32) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.if %c -> (tensor<8xf32>) {
    %a = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %t : tensor<8xf32>
  }
  %i = arith.constant 0 : index
  %x = tensor.extract %r[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// A write in a branch and after the if; a branch reading a value it overwrites.
func.func @write_after(%m: memref<8xf32>, %c: i1, %f: f32) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %i = arith.constant 0 : index
  %r = scf.if %c -> (tensor<8xf32>) {
    %a = linalg.fill ins(%f : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %t : tensor<8xf32>
  }
  %g = linalg.fill ins(%f : f32) outs(%r : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.extract %r[%i] : tensor<8xf32>
  %y = tensor.extract %g[%i] : tensor<8xf32>
  %z = arith.addf %x, %y : f32
  return %z : f32
}

// -----

func.func @read_old_in_branch(%m: memref<8xf32>, %c: i1, %f: f32) -> f32 {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %i = arith.constant 0 : index
  %r = scf.if %c -> (f32) {
    %a = linalg.fill ins(%f : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    %x = tensor.extract %t[%i] : tensor<8xf32>
    %y = tensor.extract %a[%i] : tensor<8xf32>
    %z = arith.addf %x, %y : f32
    scf.yield %z : f32
  } else {
    scf.yield %f : f32
  }
  return %r : f32
}
