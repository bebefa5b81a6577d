// torch-mlir's `torch` and `torch_c` dialects as AscendNPU-IR's Torch front
// end writes them. Types come back in torch-mlir's spelling (no spaces in
// tensor shapes, contained types without their prefix, `<*,unk>` dropped),
// constants get torch-mlir's result names, and any ATen or prims op reads
// and prints in the shared default form, also after the generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Only the custom form keeps the shape map inline.
// GENERIC: #map = affine_map<()[s0, s1] -> (s0 + s1, 16)>

// CHECK-LABEL: func.func @types(
// CHECK-SAME: %arg0: !torch.vtensor<[4,?,1],bf16>, %arg1: !torch.tensor, %arg2: !torch.tensor<*,f32>,
// CHECK-SAME: %arg3: !torch.vtensor<[],si64>, %arg4: !torch.list<optional<vtensor<[2,3],f16>>>,
// CHECK-SAME: %arg5: !torch.tuple<int, str>, %arg6: !torch.union<int, float>, %arg7: !torch.dict<str, int>,
// CHECK-SAME: %arg8: !torch.Device, %arg9: !torch.nn.Module<"Net">, %arg10: !torch.vtensor<[8],unk>)
func.func @types(%a: !torch.vtensor<[4, -1, 1], bf16>, %b: !torch.tensor<*,unk>, %c: !torch.tensor<*, f32>,
                 %d: !torch.vtensor<[ ],si64>, %e: !torch.list<optional< vtensor<[2, 3],f16> >>,
                 %f: !torch.tuple<int,str>, %g: !torch.union<int ,float>, %h: !torch.dict<str,int>,
                 %i: !torch.Device, %j: !torch.nn.Module<"Net">, %k: !torch.vtensor<[8],unk>) {
  return
}

// CHECK-LABEL: func.func @constants()
// CHECK-NEXT: %int7 = torch.constant.int 7
// CHECK-NEXT: %int-2 = torch.constant.int -2
// CHECK-NEXT: %float5.000000e-01 = torch.constant.float 5.000000e-01
// CHECK-NEXT: %float3.000000e00 = torch.constant.float 3.000000e+00
// CHECK-NEXT: %float1.234570e03 = torch.constant.float 1234.5678
// CHECK-NEXT: %true = torch.constant.bool true
// CHECK-NEXT: %false = torch.constant.bool false
// CHECK-NEXT: %none = torch.constant.none
// CHECK-NEXT: %str = torch.constant.str "mean" {tag}
// CHECK-NEXT: %cpu = torch.constant.device "cpu"
// CHECK-NEXT: %npu3A1 = torch.constant.device "npu:1"
// GENERIC: "torch.constant.int"() <{value = 7 : i64}> : () -> !torch.int
// GENERIC: "torch.constant.float"() <{value = 5.000000e-01 : f64}> : () -> !torch.float
// GENERIC: "torch.constant.bool"() <{value = true}> : () -> !torch.bool
// GENERIC: "torch.constant.none"() : () -> !torch.none
// GENERIC: "torch.constant.str"() <{value = "mean"}> {tag} : () -> !torch.str
func.func @constants() {
  %0 = torch.constant.int 7
  %1 = torch.constant.int -2
  %2 = torch.constant.float 0.5
  %3 = torch.constant.float 3
  %4 = torch.constant.float 1234.5678
  %5 = torch.constant.bool true
  %6 = torch.constant.bool false
  %7 = torch.constant.none
  %8 = torch.constant.str "mean" {tag}
  %9 = torch.constant.device "cpu"
  %10 = torch.constant.device "npu:1"
  return
}

// The default form: no `->` without operands or without results.
// CHECK-LABEL: func.func @generated(
// CHECK: %0 = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-NEXT: %1 = torch.aten.sum.dim_IntList %arg0, %0, %false, %none : !torch.vtensor<[3,4,5],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[5],f32>
// CHECK-NEXT: %2:2 = torch.aten.max.dim %arg0, %int1, %false : !torch.vtensor<[3,4,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>
// CHECK-NEXT: %3 = torch.aten.some_factory : !torch.vtensor<[2],f32>
// CHECK-NEXT: torch.aten.some_sink %int1 {note = "kept"} : !torch.int
// CHECK-NEXT: %4 = torch.prims.convert_element_type %1, %int1 : !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[5],f16>
// CHECK-NEXT: %5 = torch.prim.ListConstruct  : () -> !torch.list<vtensor>
// CHECK-NEXT: %6 = torch.prim.ListConstruct %int0, %none : (!torch.int, !torch.none) -> !torch.list<optional<int>>
// GENERIC: = "torch.aten.max.dim"(%arg{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) : (!torch.vtensor<[3,4,5],f32>, !torch.int, !torch.bool) -> (!torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>)
func.func @generated(%x: !torch.vtensor<[3, 4, 5],f32>) -> !torch.vtensor<[3,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %sum = torch.aten.sum.dim_IntList %x, %dims, %false, %none : !torch.vtensor<[3,4,5],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[5],f32>
  %values, %indices = torch.aten.max.dim %x, %int1, %false : !torch.vtensor<[3,4,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>
  %made = torch.aten.some_factory : !torch.vtensor<[2],f32>
  torch.aten.some_sink %int1 {note = "kept"} : !torch.int
  %half = torch.prims.convert_element_type %sum, %int1 : !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[5],f16>
  %empty = torch.prim.ListConstruct : () -> !torch.list<vtensor>
  %opts = torch.prim.ListConstruct %int0, %none : (!torch.int, !torch.none) -> !torch.list<optional<int>>
  return %values : !torch.vtensor<[3,5],f32>
}

// CHECK-LABEL: func.func @literals()
// CHECK-NEXT: torch.vtensor.literal(dense<2.500000e-01> : tensor<f32>) : !torch.vtensor<[],f32>
// CHECK-NEXT: torch.vtensor.literal(dense<[1, 2, 3]> : tensor<3xsi8>) : !torch.vtensor<[3],si8>
// CHECK-NEXT: torch.tensor.literal(dense<0.000000e+00> : tensor<2x2xf64>) : !torch.tensor<[?,2],f64>
func.func @literals() {
  %0 = torch.vtensor.literal(dense<0.25> : tensor<f32>) : !torch.vtensor<[],f32>
  %1 = torch.vtensor.literal(dense<[1, 2, 3]> : tensor<3xsi8>) : !torch.vtensor<[3],si8>
  %2 = torch.tensor.literal(dense<0.0> : tensor<2x2xf64>) : !torch.tensor<[?,2],f64>
  return
}

// The map stays inline; the symbols are `!torch.int`s of `symbolic_int`.
// CHECK-LABEL: func.func @symbolic(
// CHECK-NOT: #map
// CHECK: %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
// CHECK-NEXT: %1 = torch.symbolic_int "s1" {min_val = 1, max_val = 8} {origin = "dynamo"} : !torch.int
// CHECK-NEXT: torch.bind_symbolic_shape %arg0, [%0, %1], affine_map<()[s0, s1] -> (s0 + s1, 16)> : !torch.vtensor<[?,16],f16>
// GENERIC: "torch.symbolic_int"() <{max_val = 64 : i64, min_val = 2 : i64, symbol_name = "s0"}> : () -> !torch.int
// GENERIC: "torch.bind_symbolic_shape"(%arg{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) <{shape_expressions = #map}> : (!torch.vtensor<[?,16],f16>, !torch.int, !torch.int) -> ()
func.func @symbolic(%t: !torch.vtensor<[?,16],f16>) {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 1, max_val = 8} {origin = "dynamo"} : !torch.int
  torch.bind_symbolic_shape %t, [%s0, %s1], affine_map<()[s0, s1] -> (s0 + s1, 16)> : !torch.vtensor<[?,16],f16>
  return
}

// CHECK-LABEL: func.func @conversions(
// CHECK: %0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,8],si32> -> tensor<?x8xi32>
// CHECK-NEXT: %1 = torch_c.from_builtin_tensor %0 : tensor<?x8xi32> -> !torch.vtensor<[?,8],si32>
// CHECK-NEXT: %2 = torch_c.to_i64 %arg1
// CHECK-NEXT: %3 = torch_c.from_i64 %2
// CHECK-NEXT: %4 = torch_c.to_f64 %arg2
// CHECK-NEXT: %5 = torch_c.from_f64 %4
// CHECK-NEXT: %6 = torch_c.to_i1 %arg3
// CHECK-NEXT: %7 = torch_c.from_i1 %6
// CHECK-NEXT: %8 = torch_c.get_next_seed : () -> i64
// CHECK-NEXT: %9 = torch_c.i64_to_generator %8
// CHECK-NEXT: %10 = torch_c.generator_to_i64 %9
// GENERIC: "torch_c.to_i64"(%arg{{[0-9]+}}) : (!torch.int) -> i64
func.func @conversions(%t: !torch.vtensor<[?,8],si32>, %i: !torch.int, %f: !torch.float, %b: !torch.bool) {
  %0 = torch_c.to_builtin_tensor %t : !torch.vtensor<[?,8],si32> -> tensor<?x8xi32>
  %1 = torch_c.from_builtin_tensor %0 : tensor<?x8xi32> -> !torch.vtensor<[?,8],si32>
  %2 = torch_c.to_i64 %i
  %3 = torch_c.from_i64 %2
  %4 = torch_c.to_f64 %f
  %5 = torch_c.from_f64 %4
  %6 = torch_c.to_i1 %b
  %7 = torch_c.from_i1 %6
  %8 = torch_c.get_next_seed : () -> i64
  %9 = torch_c.i64_to_generator %8
  %10 = torch_c.generator_to_i64 %9
  return
}
