// RUN: hivm-opt %s -split-input-file -verify-diagnostics
// Contractions, outer products, scans and scalable-vector ops that are
// malformed (this file gives the same diagnostics with mlir-opt 22).

#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"]}

func.func @no_reduction(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.contract' op expected at least one contracting dimension pair}}
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"]}

func.func @wrong_acc(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<4x2xf32>) -> vector<4x2xf32> {
  // expected-error@+1 {{'vector.contract' op invalid accumulator/result vector shape, expected: 'vector<2x4xf32>'}}
  %0 = vector.contract #mm %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<4x2xf32>
  return %0 : vector<4x2xf32>
}

// -----

#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"]}

func.func @mismatched_k(%a: vector<2x3xf32>, %b: vector<5x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.contract' op invalid contracting dimension map}}
  %0 = vector.contract #mm %a, %b, %c : vector<2x3xf32>, vector<5x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @bad_iterator(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  // expected-error@+1 {{custom op 'vector.contract' unexpected iterator_type (sideways)}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>],
                        iterator_types = ["sideways"]} %a, %b, %c : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @no_iterators(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  // expected-error@+1 {{custom op 'vector.contract' expected "iterator_types" array attribute}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>]} %a, %b, %c : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @int_kind_on_floats(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  // expected-error@+1 {{'vector.contract' op unsupported contraction type}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>],
                        iterator_types = ["reduction"], kind = #vector.kind<or>} %a, %b, %c : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @non_permutation(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  // expected-error@+1 {{'vector.contract' op expected indexing map 1 to be a projected permutation of its inputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k + 1)>, affine_map<(k) -> ()>],
                        iterator_types = ["reduction"]} %a, %b, %c : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @masks_as_operands(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32, %m: vector<3xi1>) -> f32 {
  // expected-error@+1 {{'vector.contract' op expected 3 operands, but found 5}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>],
                        iterator_types = ["reduction"]} %a, %b, %c, %m, %m : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"]}

func.func @wrong_mask(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>, %m: vector<2x3x4xi1>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.mask' op expects a 'vector<2x4x3xi1>' mask for the maskable operation}}
  %0 = vector.mask %m { vector.contract #mm %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32> } : vector<2x3x4xi1> -> vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @outer_kind(%a: vector<4xf32>, %b: vector<8xf32>) {
  // expected-error@+1 {{'vector.outerproduct' op unsupported outerproduct type}}
  %0 = vector.outerproduct %a, %b {kind = #vector.kind<minsi>} : vector<4xf32>, vector<8xf32>
  return
}

// -----

func.func @outer_scalable_lhs(%a: vector<[4]xf32>, %b: vector<8xf32>) {
  // expected-error@+1 {{'vector.outerproduct' op expected either both or only #2 operand dim to be scalable}}
  %0 = vector.outerproduct %a, %b : vector<[4]xf32>, vector<8xf32>
  return
}

// -----

func.func @outer_scalar_lhs(%a: f32, %b: vector<8xf32>) {
  // expected-error@+1 {{custom op 'vector.outerproduct' expected vector type for operand #1}}
  %0 = vector.outerproduct %a, %b : f32, vector<8xf32>
  return
}

// -----

func.func @scan_dim(%v: vector<4x8xf32>, %i: vector<4xf32>) {
  // expected-error@+1 {{'vector.scan' op reduction dimension 2 has to be less than 2}}
  %0:2 = vector.scan <add>, %v, %i {reduction_dim = 2 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>
  return
}

// -----

func.func @scan_init(%v: vector<4x8xf32>, %i: vector<8xf32>) {
  // expected-error@+1 {{'vector.scan' op incompatible input/initial value shapes}}
  %0:2 = vector.scan <add>, %v, %i {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<8xf32>
  return
}

// -----

func.func @scan_kind(%v: vector<4x8xf32>, %i: vector<4xf32>) {
  // expected-error@+1 {{'vector.scan' op unsupported reduction type 'f32' for kind 'xor'}}
  %0:2 = vector.scan <xor>, %v, %i {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>
  return
}

// -----

func.func @insert_position(%s: vector<4xi8>, %d: vector<[16]xi8>) {
  // expected-error@+1 {{'vector.scalable.insert' op failed to verify that position is a multiple of the source length.}}
  %0 = vector.scalable.insert %s, %d[6] : vector<4xi8> into vector<[16]xi8>
  return
}

// -----

func.func @extract_fixed(%d: vector<16xi8>) {
  // expected-error@+1 {{'vector.scalable.extract' op operand #0 must be  of ranks 1, but got 'vector<16xi8>'}}
  %0 = vector.scalable.extract %d[0] : vector<4xi8> from vector<16xi8>
  return
}
