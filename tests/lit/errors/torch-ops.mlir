// The torch and torch_c dialects' checks: torch-mlir's type verifier,
// its op verifiers in its words, ODS's type constraints, and the generic
// checks every ATen op gets.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{invalid dtype i32 for !torch.tensor type}}
func.func @signless_dtype(%a: !torch.vtensor<[2],i32>) {
  return
}

// -----

// expected-error@+1 {{invalid size -4 for !torch.tensor type}}
func.func @negative_size(%a: !torch.tensor<[-4],f32>) {
  return
}

// -----

// expected-error@+1 {{unknown  type `matrix` in dialect `torch`}}
func.func @unknown_type(%a: !torch.matrix) {
  return
}

// -----

// Contained types are written without their prefix.
// expected-error@+1 {{expected keyword}}
func.func @prefixed_element(%a: !torch.list<!torch.int>) {
  return
}

// -----

// expected-error@+1 {{expected ','}}
func.func @missing_dtype(%a: !torch.vtensor<[2]>) {
  return
}

// -----

func.func @list_of_wrong_type(%a: !torch.float) {
  // expected-error@+1 {{operand types should have the same type as the list contained type}}
  %0 = torch.prim.ListConstruct %a : (!torch.float) -> !torch.list<int>
  return
}

// -----

func.func @list_result_not_list(%a: !torch.int) {
  // expected-error@+1 {{'torch.prim.ListConstruct' op result #0 must be Any Torch list Type, but got '!torch.int'}}
  %0 = torch.prim.ListConstruct %a : (!torch.int) -> !torch.int
  return
}

// -----

func.func @aten_builtin_operand(%a: f32) {
  // expected-error@+1 {{'torch.aten.neg' op operand #0 must be Any type that is legal to pass to a Torch kernel, but got 'f32'}}
  %0 = torch.aten.neg %a : f32 -> !torch.float
  return
}

// -----

func.func @aten_type_count(%a: !torch.int) {
  // expected-error@+1 {{2 operands present, but expected 1}}
  %0 = torch.aten.add.int %a, %a : !torch.int -> !torch.int
  return
}

// -----

func.func @aten_generic_regions(%a: !torch.int) {
  // expected-error@+1 {{'torch.aten.foo' op requires zero regions}}
  "torch.aten.foo"(%a) ({
  }) : (!torch.int) -> ()
  return
}

// -----

func.func @literal_shape() {
  // expected-error@+1 {{'torch.vtensor.literal' op inferred type(s) '!torch.vtensor<[4],f16>' are incompatible with return type(s) of operation '!torch.vtensor<[5],f16>'}}
  %0 = torch.vtensor.literal(dense<1.0> : tensor<4xf16>) : !torch.vtensor<[5],f16>
  return
}

// -----

func.func @literal_not_elements() {
  // expected-error@+1 {{'torch.vtensor.literal' op attribute 'value' failed to satisfy constraint: constant vector/tensor attribute}}
  %0 = torch.vtensor.literal(2.0 : f32) : !torch.vtensor<[],f32>
  return
}

// -----

func.func @int_result_type() {
  // expected-error@+1 {{'torch.constant.int' op result #0 must be Torch IntType, but got '!torch.float'}}
  %0 = "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.float
  return
}

// -----

func.func @float_width() {
  // expected-error@+1 {{'torch.constant.float' op attribute 'value' failed to satisfy constraint: 64-bit float attribute}}
  %0 = "torch.constant.float"() <{value = 1.5 : f32}> : () -> !torch.float
  return
}

// -----

func.func @symbolic_int_bounds() {
  // expected-error@+1 {{expected ','}}
  %0 = torch.symbolic_int "s0" {min_val = 1} : !torch.int
  return
}

// -----

func.func @symbol_not_symbolic(%t: !torch.vtensor<[?],f32>, %n: !torch.int) {
  // expected-error@+1 {{'torch.bind_symbolic_shape' op shape symbol must be produced by a SymbolicIntOp}}
  torch.bind_symbolic_shape %t, [%n], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return
}

// -----

func.func @symbol_count(%t: !torch.vtensor<[?,?],f32>) {
  %0 = torch.symbolic_int "s0" {min_val = 1, max_val = 4} : !torch.int
  // expected-error@+1 {{'torch.bind_symbolic_shape' op requires equal number of shape symbol args and symbol args to the attached affine map, since they are 1:1 mapped}}
  torch.bind_symbolic_shape %t, [%0], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],f32>
  return
}

// -----

func.func @builtin_shape(%t: !torch.vtensor<[2,3],f32>) {
  // expected-error@+1 {{operand and result must have the same size and dtype}}
  %0 = torch_c.to_builtin_tensor %t : !torch.vtensor<[2,3],f32> -> tensor<3x2xf32>
  return
}

// -----

func.func @builtin_from_tensor(%t: tensor<2xf32>) {
  // expected-error@+1 {{'torch_c.from_builtin_tensor' op result #0 must be Multi-dimensional array modeling Torch's Tensor type, but got '!torch.tensor<[2],f32>'}}
  %0 = torch_c.from_builtin_tensor %t : tensor<2xf32> -> !torch.tensor<[2],f32>
  return
}

// -----

func.func @scalar_cast_type(%a: i32) {
  // expected-error@+1 {{'torch_c.from_i64' op operand #0 must be 64-bit signless integer, but got 'i32'}}
  %0 = "torch_c.from_i64"(%a) : (i32) -> !torch.int
  return
}
