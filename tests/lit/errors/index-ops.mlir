// The index dialect's checks, in mlir-opt's words.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @bad_predicate(%a: index, %b: index) {
  // expected-error@+1 {{custom op 'index.cmp' expected ::mlir::index::IndexCmpPredicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge}}
  %c = index.cmp lt(%a, %b)
  return
}

// -----

func.func @cast_same_kind(%a: index) {
  // expected-error@+1 {{'index.casts' op operand type 'index' and result type 'index' are cast incompatible}}
  %c = index.casts %a : index to index
  return
}

// -----

func.func @cast_to_float(%a: index) {
  // expected-error@+1 {{'index.castu' op result #0 must be integer or index, but got 'f32'}}
  %c = index.castu %a : index to f32
  return
}

// -----

func.func @no_predicate(%a: index, %b: index) {
  // expected-error@+1 {{'index.cmp' op requires attribute 'pred'}}
  %c = "index.cmp"(%a, %b) : (index, index) -> i1
  return
}
