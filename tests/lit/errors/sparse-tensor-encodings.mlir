// Malformed sparse tensor encodings: bad level formats and properties,
// variable bindings, affine level expressions, bit widths, stored values,
// slices, structural rules of the verifier and mismatches with the tensor
// type that holds the encoding. mlir-opt 22 gives the same diagnostics, at
// the same places, for this file.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: [[@LINE+1]]:64: error: unknown level format: sparse
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : sparse) }>

// -----

// CHECK: [[@LINE+1]]:75: error: unknown level property: unique
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed(unique)) }>

// -----

// CHECK: [[@LINE+1]]:53: error: invalid level type: level format doesn't support the properties
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense(nonordered), j : compressed) }>

// -----

// CHECK: [[@LINE+1]]:64: error: expected exactly 2 structured sizes
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured[4]) }>

// -----

// CHECK: [[@LINE+1]]:64: error: expected n <= m in n_out_of_m
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : structured[4, 2]) }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected compressed or loose_compressed level before singleton level
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : singleton) }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS).
#e = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : singleton(soa), k : singleton) }>

// -----

// CHECK: [[@LINE+1]]:21: error: SoA is only applicable to singleton lvlTypes.
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(soa), j : singleton) }>

// -----

// CHECK: [[@LINE+1]]:21: error: Batch lvlType can only be leading levels.
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : batch) }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected n_out_of_m to be the last level type
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : structured[2, 4], j : dense) }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 8 : dense, j mod 8 : structured[2, 4]) }>

// -----

// CHECK: [[@LINE+1]]:21: error: unexpected position bitwidth: 12
#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 12 }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected an integral index bitwidth
#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), crdWidth = 8.0 }>

// -----

// CHECK: [[@LINE+1]]:21: error: unexpected key: dimToLvl
#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), dimToLvl = 1 }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected a numeric value for explicitVal
#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = "one" }>

// -----

// CHECK: [[@LINE+1]]:77: error: integer constant out of range for attribute
#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), implicitVal = 300 : i8 }>

// -----

// CHECK: [[@LINE+1]]:21: error: failed to infer lvlToDim from dimToLvl
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i + j : dense, j : compressed) }>

// -----

// CHECK: [[@LINE+1]]:21: error: expected lvlToDim to be an inverse of dimToLvl
#e = #sparse_tensor.encoding<{ map = {a, b} (i = a, j = b) -> (a = j : dense, b = i : compressed) }>

// -----

// CHECK: [[@LINE+1]]:21: error: unexpected dimToLvl mapping from 3 to 2
#e = #sparse_tensor.encoding<{ map = (i, j, k) -> (i floordiv 4 : dense, i mod 4 : dense) }>

// -----

// CHECK: [[@LINE+1]]:59: error: use of undeclared identifier
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, k : compressed) }>

// -----

// CHECK: [[@LINE+1]]:43: error: redefinition of identifier 'i'
#e = #sparse_tensor.encoding<{ map = [i] (i) -> (i : compressed) }>

// -----

// CHECK: [[@LINE+1]]:56: error: Level-variable ordering mismatch. The variable 'b' was forward-declared as the 1st level; but is bound by the 0th specification.
#e = #sparse_tensor.encoding<{ map = {a, b} (i, j) -> (b = i : dense, a = j : compressed) }>

// -----

// CHECK: [[@LINE+1]]:55: error: Level-rank mismatch between forward-declarations and specifiers. Declared 2 level-variables; but got 1 level-specifiers.
#e = #sparse_tensor.encoding<{ map = {a, b} (i, j) -> (a = i : dense) }>

// -----

// CHECK: [[@LINE+1]]:51: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic
#e = #sparse_tensor.encoding<{ map = (i, j) -> (i * j : dense, j : compressed) }>

// -----

// CHECK: [[@LINE+1]]:66: error: expect positive value or ? for slice offset/size/stride
#e = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(-2, 4, 1)>) -> (i : compressed) }>

// -----

// CHECK: [[@LINE+1]]:58: error: expect positive value or ? for slice stride
#e = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(2, 4, 0)>) -> (i : compressed) }>

// -----

// CHECK: [[@LINE+1]]:43: error: expected SparseTensorDimSliceAttr
#e = #sparse_tensor.encoding<{ map = (i : 4) -> (i : compressed) }>

// -----

// CHECK: [[@LINE+3]]:24: error: unknown level format: compresed
#e = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense,     // rows
                   j : compresed) // columns
}>

// -----

// CHECK: [[@LINE+1]]:21: error: unknown attribute `layout` in dialect `sparse_tensor`
#e = #sparse_tensor.layout<{ map = (i) -> (i : compressed) }>

// -----

#e = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK: [[@LINE+1]]:45: error: dimension-rank mismatch between encoding and tensor shape: 2 != 3
func.func private @rank(tensor<2x3x4xf32, #e>)

// -----

#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), explicitVal = 2.0 : f32 }>
// CHECK: [[@LINE+1]]:42: error: explicit value type mismatch between encoding and tensor element type: 'f32' != 'f64'
func.func private @value(tensor<8xf64, #e>)

// -----

#e = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), implicitVal = 1 : i32 }>
// CHECK: [[@LINE+1]]:45: error: implicit value must be zero
func.func private @implicit(tensor<8xi32, #e>)

// -----

// CHECK: [[@LINE+1]]:97: error: expected non-scalar sparse tensor
func.func private @scalar(tensor<f32, #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>>)
