// Element reads and writes check their types and index counts in upstream's
// words. mlir-opt accepts this file with the same flags.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @load_type(%m: memref<16xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %x = "memref.load"(%m, %i) : (memref<16xf32>, index) -> i32
  return
}

// -----

func.func @store_type(%m: memref<16xf32>, %i: index, %v: i32) {
  // expected-error @+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%v, %m, %i) : (i32, memref<16xf32>, index) -> ()
  return
}

// -----

func.func @extract_type(%t: tensor<16x8xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op failed to verify that result type matches element type of tensor}}
  %x = "tensor.extract"(%t, %i, %i) : (tensor<16x8xf32>, index, index) -> tensor<4x8xf32>
  return
}

// -----

func.func @extract_indices(%t: tensor<16x8xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op incorrect number of indices for extract_element}}
  %x = "tensor.extract"(%t, %i) : (tensor<16x8xf32>, index) -> f32
  return
}

// -----

func.func @insert_scalar(%t: tensor<16x8xf32>, %i: index, %v: i32) {
  // expected-error @+1 {{'tensor.insert' op failed to verify that scalar type matches element type of dest}}
  %x = "tensor.insert"(%v, %t, %i, %i) : (i32, tensor<16x8xf32>, index, index) -> tensor<16x8xf32>
  return
}

// -----

func.func @insert_indices(%t: tensor<16x8xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{'tensor.insert' op incorrect number of indices}}
  %x = "tensor.insert"(%v, %t, %i) : (f32, tensor<16x8xf32>, index) -> tensor<16x8xf32>
  return
}

// -----

func.func @no_properties(%t: tensor<16x8xf32>, %i: index) {
  // expected-error @+1 {{invalid properties {s = array<i64: 0>} for op tensor.extract: this operation does not support properties}}
  %x = "tensor.extract"(%t, %i, %i) <{s = array<i64: 0>}> : (tensor<16x8xf32>, index, index) -> f32
  return
}
