// The transform dialect's verifier and parser errors, located at the op
// (or at the terminator it concerns), in mlir-opt's words.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: [[@LINE+2]]:3: error: expects the parent symbol table to have the 'transform.with_named_sequence' attribute
module {
  transform.named_sequence @missing_tag(%arg0: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @count(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    // CHECK: [[@LINE+1]]:5: error: expected terminator to have as many operands as the parent op has results
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @types(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_value {
    // CHECK: [[@LINE+1]]:5: error: the type of the terminator operand #0 must match the type of the corresponding parent op result ('!transform.any_op' vs '!transform.any_value')
    transform.yield %arg0 : !transform.any_op
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // CHECK: [[@LINE+1]]:3: error: expected 'transform.yield' as terminator
  transform.named_sequence @no_yield(%arg0: !transform.any_op {transform.readonly}) {
    "test.op"() : () -> ()
  }
}

// -----

// CHECK: [[@LINE+1]]:1: error: 'transform.sequence' op expects the entry block to have at least one argument
transform.sequence failures(propagate) {
^bb0:
}

// -----

transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  // CHECK: [[@LINE+1]]:3: error: 'transform.sequence' op expects operands to be provided for a nested op
  transform.sequence failures(propagate) {
  ^bb1(%arg1: !transform.any_op):
  }
}

// -----

// CHECK: [[@LINE+1]]:1: error: 'transform.sequence' op expected children ops to implement TransformOpInterface
transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  "test.op"() : () -> ()
}

// -----

transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  // CHECK: [[@LINE+1]]:8: error: 'transform.foreach' op expects the same number of results as the yield terminator has operands
  %r = transform.foreach %arg0 : !transform.any_op -> !transform.any_op {
  ^bb1(%a: !transform.any_op):
  }
}

// -----

transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  // CHECK: [[@LINE+1]]:3: error: 'transform.foreach' op expects co-indexed targets and the body's block arguments to have the same op/value/param type
  transform.foreach %arg0 : !transform.any_op {
  ^bb1(%a: !transform.any_value):
  }
}

// -----

func.func @dims(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:8: error: 'transform.get_operand' op expected the listed values to be unique
  %0 = transform.get_operand %h[0, 0] : (!transform.any_op) -> !transform.any_value
  return
}

// -----

func.func @kinds(%v: !transform.any_value) {
  // CHECK: [[@LINE+1]]:8: error: 'transform.cast' op operand #0 must be TransformHandleTypeInterface instance, but got '!transform.any_value'
  %0 = "transform.cast"(%v) : (!transform.any_value) -> !transform.any_op
  return
}

// -----

func.func @loops(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:12: error: 'transform.structured.tile_using_for' op expected number of loops to tile (2) to match number of `loops` results (1)
  %t, %l = transform.structured.tile_using_for %h tile_sizes [4, 0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

func.func @forall(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:12: error: 'transform.structured.tile_using_forall' op either (packed_)num_threads or (packed_)tile_sizes must be specified
  %t, %f = transform.structured.tile_using_forall %h : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

func.func @fuse(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:12: error: 'transform.structured.fuse' op expects interchange to be a permutation, found [0, 0]
  %t, %l = transform.structured.fuse %h [4] interchange [0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

func.func @peel(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:10: error: 'transform.loop.peel' op operand #0 must be Transform IR handle to scf.for operations, but got '!transform.any_op'
  %p:2 = transform.loop.peel %h : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
  return
}

// -----

func.func @patterns(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:3: error: 'transform.apply_patterns' op expected children ops to implement PatternDescriptorOpInterface
  transform.apply_patterns to %h {
    transform.apply_cse to %h : !transform.any_op
  } : !transform.any_op
  return
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @main(%arg0: !transform.any_op {transform.readonly}) {
    // CHECK: [[@LINE+1]]:5: error: 'transform.include' op does not reference a named transform sequence
    transform.include @nowhere failures(propagate) (%arg0) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// The type's own errors (reported where the type starts).
// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: only supports integer types with width <=64
func.func private @f(!transform.param<f32>)

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown type mnemonic: handle
func.func private @g(!transform.handle)

// -----

func.func @tile(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:10: error: expected 2 result type(s)
  %t:3 = transform.loop.tile %h [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  return
}

// -----

func.func @buffer_mode(%h: !transform.any_op) {
  // CHECK: [[@LINE+1]]:55: error: custom op 'transform.structured.set_buffer_size' expected string or keyword containing one of the following enum values for attribute 'unit_mode' [per_byte, per_element]
  transform.structured.set_buffer_size %h unit_mode = per_bit : !transform.any_op
  return
}
