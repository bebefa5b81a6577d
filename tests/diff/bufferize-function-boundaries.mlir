// DIFF-ARGS: -one-shot-bufferize=bufferize-function-boundaries -split-input-file
// Function-boundary bufferization: tensor arguments become memrefs of the fully
// dynamic layout (writable unless marked), results take the returned buffers'
// types (upstream leaves a cast to the dynamic layout that nothing uses);
// calls pass buffers, copies where the callee writes an argument the caller
// reads later, and declarations get memref signatures.
func.func @read(%t: tensor<8xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %x : f32
}
// -----
func.func @write(%t: tensor<8xf32>, %f: f32) -> tensor<8xf32> {
  %r = linalg.fill ins(%f : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// -----
func.func @custom(%a: tensor<16xf16>, %b: tensor<16xf16>) -> tensor<16xf16> {
  %c = arith.constant 1.0 : f16
  %e = tensor.empty() : tensor<16xf16>
  %r = linalg.fill ins(%c : f16) outs(%e : tensor<16xf16>) -> tensor<16xf16>
  return %r : tensor<16xf16>
}
// -----
func.func @write_then_read(%t: tensor<8xf32>, %f: f32) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r = linalg.fill ins(%f : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %x : tensor<8xf32>, f32
}
// -----
func.func @readonly(%t: tensor<8xf32> {bufferization.writable = false}, %f: f32) -> tensor<8xf32> {
  %r = linalg.fill ins(%f : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// -----
func.func @slice(%t: tensor<16xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @loop(%t: tensor<8xf32>, %n: index, %f: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %b = tensor.insert %f into %a[%i] : tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
// -----
func.func @branch(%t: tensor<8xf32>, %u: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %r = scf.if %c -> (tensor<8xf32>) {
    scf.yield %t : tensor<8xf32>
  } else {
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
// -----
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func @mixed(%m: memref<4xf32>, %t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  return %x : f32
}

// -----

func.func @callee(%t: tensor<8xf32>, %f: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %f into %t[%c0] : tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @fresh(%f: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @caller(%t: tensor<8xf32>, %f: f32) -> f32 {
  %r = call @callee(%t, %f) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %c1 = arith.constant 1 : index
  %x = tensor.extract %r[%c1] : tensor<8xf32>
  %y = tensor.extract %t[%c1] : tensor<8xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

func.func @inc(%t: tensor<8xf32>, %i: index) -> tensor<8xf32> {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  %one = arith.constant 1.0 : f32
  %y = arith.addf %x, %one : f32
  %r = tensor.insert %y into %t[%i] : tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @peek(%t: tensor<8xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %x : f32
}
func.func @make(%f: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @main(%t: tensor<8xf32>, %i: index, %f: f32) -> (tensor<8xf32>, f32) {
  %a = call @inc(%t, %i) : (tensor<8xf32>, index) -> tensor<8xf32>
  %b = call @inc(%a, %i) : (tensor<8xf32>, index) -> tensor<8xf32>
  %p = call @peek(%b, %i) : (tensor<8xf32>, index) -> f32
  %m = call @make(%f) : (f32) -> tensor<8xf32>
  %n = call @inc(%m, %i) : (tensor<8xf32>, index) -> tensor<8xf32>
  %q = call @peek(%n, %i) : (tensor<8xf32>, index) -> f32
  %s = arith.addf %p, %q : f32
  return %b, %s : tensor<8xf32>, f32
}

// -----

func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @use(%t: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %r = call @ext(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}
