// Functions get the cores their ops and callees need; a custom op counts by
// its core type; unconstrained functions are vector functions.
// RUN: hivm-opt %s --hivm-infer-func-core-type | FileCheck %s

// CHECK: module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>}
// CHECK: func.func @vector_custom{{.*}}hivm.func_core_type = #hivm.func_core_type<AIV>
// CHECK: func.func @cube_custom{{.*}}hivm.func_core_type = #hivm.func_core_type<AIC>
// CHECK: func.func @both{{.*}}hivm.func_core_type = #hivm.func_core_type<MIX>
// CHECK: func.func @scalar_only{{.*}}hivm.func_core_type = #hivm.func_core_type<AIV>
// CHECK: func.func @kept{{.*}}hivm.func_core_type = #hivm.func_core_type<AIC>
module {
  func.func @vector_custom(%a: memref<16xf32>, %o: memref<16xf32>) {
    hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "f"} "f" ins(%a : memref<16xf32>) outs(%o : memref<16xf32>)
    return
  }
  func.func @cube_custom(%a: memref<16xf32>, %o: memref<16xf32>) {
    hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_M>, hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "g"} "g" ins(%a : memref<16xf32>) outs(%o : memref<16xf32>)
    return
  }
  func.func @both(%a: memref<16xf32>, %o: memref<16xf32>) {
    func.call @vector_custom(%a, %o) : (memref<16xf32>, memref<16xf32>) -> ()
    func.call @cube_custom(%a, %o) : (memref<16xf32>, memref<16xf32>) -> ()
    return
  }
  func.func @scalar_only(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i32
    return %y : i32
  }
  func.func @kept() attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
    return
  }
}

