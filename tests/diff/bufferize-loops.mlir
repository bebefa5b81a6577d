// DIFF-ARGS: -one-shot-bufferize -split-input-file
// Loops: iter_args that reuse their init's buffer, copies when the init is
// read-only or read again later, writes inside a loop into outer tensors.

// A running update of one buffer: everything in place.
func.func @accumulate(%m: memref<16xi32>, %n: index) {
  %t = bufferization.to_tensor %m restrict writable : memref<16xi32> to tensor<16xi32>
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %inc = arith.constant 3 : i32
  %r = scf.for %i = %lb to %n step %one iter_args(%acc = %t) -> (tensor<16xi32>) {
    %old = tensor.extract %acc[%i] : tensor<16xi32>
    %new = arith.addi %old, %inc : i32
    %next = tensor.insert %new into %acc[%i] : tensor<16xi32>
    scf.yield %next : tensor<16xi32>
  }
  bufferization.materialize_in_destination %r in writable %m : (tensor<16xi32>, memref<16xi32>) -> ()
  return
}

// -----

// The init is read after the loop: the loop works on a copy.
func.func @init_read_later(%m: memref<4x4xf16>, %n: index) -> f16 {
  %t = bufferization.to_tensor %m restrict writable : memref<4x4xf16> to tensor<4x4xf16>
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %v = arith.constant 2.5 : f16
  %r = scf.for %i = %lb to %n step %one iter_args(%acc = %t) -> (tensor<4x4xf16>) {
    %f = linalg.fill ins(%v : f16) outs(%acc : tensor<4x4xf16>) -> tensor<4x4xf16>
    scf.yield %f : tensor<4x4xf16>
  }
  %a = tensor.extract %t[%lb, %one] : tensor<4x4xf16>
  %b = tensor.extract %r[%one, %lb] : tensor<4x4xf16>
  %s = arith.addf %a, %b : f16
  return %s : f16
}

// -----

// A read-only argument as init: the loop gets a copy with an identity layout.
func.func @arg_init(%t: tensor<8xf32>, %n: index, %f: f32) -> f32 {
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %r = scf.for %i = %lb to %n step %one iter_args(%acc = %t) -> (tensor<8xf32>) {
    %z = tensor.insert %f into %acc[%i] : tensor<8xf32>
    scf.yield %z : tensor<8xf32>
  }
  %x = tensor.extract %r[%lb] : tensor<8xf32>
  return %x : f32
}

// -----

// A write inside a loop into a tensor the loop also reads: a fresh buffer
// per iteration (no copy: fill overwrites it).
func.func @outer_write(%m: memref<8xf32>, %n: index) {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %lb to %n step %one {
    %x = tensor.extract %t[%i] : tensor<8xf32>
    %w = linalg.fill ins(%x : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    %y = tensor.extract %w[%i] : tensor<8xf32>
    memref.store %y, %m[%lb] : memref<8xf32>
  }
  return
}

// -----

// Nested loops and an scf.if whose branches yield the same buffer.
func.func @nested(%m: memref<8xf32>, %n: index, %f: f32) {
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %r = scf.for %i = %lb to %n step %one iter_args(%a = %t) -> (tensor<8xf32>) {
    %s = scf.for %j = %lb to %n step %one iter_args(%b = %a) -> (tensor<8xf32>) {
      %x = tensor.extract %b[%j] : tensor<8xf32>
      %y = arith.addf %x, %f : f32
      %z = tensor.insert %y into %b[%i] : tensor<8xf32>
      scf.yield %z : tensor<8xf32>
    }
    %c = arith.cmpf olt, %f, %f : f32
    %q = scf.if %c -> tensor<8xf32> {
      %e = linalg.fill ins(%f : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %e : tensor<8xf32>
    } else {
      scf.yield %s : tensor<8xf32>
    }
    scf.yield %q : tensor<8xf32>
  }
  bufferization.materialize_in_destination %r in writable %m : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

// Two iter_args and a scalar one, with slices of the tensor inside.
func.func @mixed(%m: memref<8x8xf32>, %n: index) -> (f32, index) {
  %t = bufferization.to_tensor %m restrict writable : memref<8x8xf32> to tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %c = arith.constant 1.0 : f32
  %r:3 = scf.for %i = %lb to %n step %one iter_args(%a = %t, %k = %lb, %b = %e) -> (tensor<8x8xf32>, index, tensor<8x8xf32>) {
    %s = tensor.extract_slice %a[%i, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<1x8xf32>
    %f = linalg.fill ins(%c : f32) outs(%s : tensor<1x8xf32>) -> tensor<1x8xf32>
    %u = tensor.insert_slice %f into %a[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<8x8xf32>
    %g = linalg.fill ins(%c : f32) outs(%b : tensor<8x8xf32>) -> tensor<8x8xf32>
    %k2 = arith.addi %k, %one : index
    scf.yield %u, %k2, %g : tensor<8x8xf32>, index, tensor<8x8xf32>
  }
  %x = tensor.extract %r#0[%lb, %lb] : tensor<8x8xf32>
  %y = tensor.extract %r#2[%one, %one] : tensor<8x8xf32>
  %s = arith.addf %x, %y : f32
  return %s, %r#1 : f32, index
}
