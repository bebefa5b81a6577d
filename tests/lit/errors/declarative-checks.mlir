// Structural checks every declaratively defined op gets (opspec/verify.rs),
// guarding its custom form against IR it could not print back faithfully.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @uneven_variadic_groups(%s: memref<16xf32>, %d: memref<16xf32>, %o: index, %x: f32, %a: index) {
  // expected-error @+1 {{'hivm.hir.stride_load' op expected the 2 variadic operand groups to have the same size}}
  hivm.hir.stride_load ins(%s : memref<16xf32>) outs(%d : memref<16xf32>) offset(%o : index) other(%x : f32) strides([%a, %a : index, index]) numels([%a : index])
  return
}

// -----

func.func @dynamic_list_mismatch(%v: vector<2x4xf32>, %i: index) -> vector<4xf32> {
  // expected-error @+1 {{'vector.extract' op expected 0 dynamic values for the '?' entries of 'static_position', but got 1}}
  %0 = "vector.extract"(%v, %i) <{static_position = array<i64: 1>}> : (vector<2x4xf32>, index) -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @types_must_match(%x: f32) -> f64 {
  // expected-error @+1 {{'math.sqrt' op failed to verify that all of {operand, result} have same type}}
  %0 = "math.sqrt"(%x) : (f32) -> f64
  return %0 : f64
}

// -----

func.func @fixed_operand_type(%y: i32) -> vector<4xi1> {
  // expected-error @+1 {{'vector.create_mask' op operand #0 must be index, but got 'i32'}}
  %1 = "vector.create_mask"(%y) : (i32) -> vector<4xi1>
  return %1 : vector<4xi1>
}

// -----

func.func @printed_attribute_required() {
  // expected-error @+1 {{'hivm.hir.set_atomic' op requires attribute 'type'}}
  "hivm.hir.set_atomic"() <{kind = #hivm.atomic_kind<add>}> : () -> ()
  return
}

// -----

func.func @negative_segment(%a: memref<16xf32>) {
  // expected-error @+1 {{'hivm.hir.vadd' op 'operandSegmentSizes' attribute cannot have negative elements}}
  "hivm.hir.vadd"(%a, %a, %a) <{operandSegmentSizes = array<i32: 2, 2, -1>}> : (memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  return
}

// -----

func.func @too_large(%v: vector<2x4xf32>) -> vector<4x2xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = vector.transpose %v, [1, 18446744073709551616] : vector<2x4xf32> to vector<4x2xf32>
  return %0 : vector<4x2xf32>
}

// -----

func.func @switch_successor_operands(%i: i32, %x: f32) {
  // expected-error @+1 {{'cf.switch' op branch has 1 operands for successor #0, but target block has 0}}
  cf.switch %i : i32, [ default: ^bb1(%x : f32) ]
^bb1:
  return
}
