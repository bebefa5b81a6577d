// RUN: hivm-opt %s --split-input-file --hivm-infer-mem-scope -allow-unregistered-dialect | FileCheck %s

// A vector kernel after bufferization: parameters in GM, its buffers in UB,
// through a view, a loop-carried buffer and a helper's signature.
// CHECK-LABEL: func.func @vec(
// CHECK-SAME: %arg0: memref<?xf16, #hivm.address_space<gm>>
// CHECK: %[[A:.*]] = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
// CHECK: memref.subview %[[A]][0] [32] [1] : memref<64xf16, #hivm.address_space<ub>> to memref<32xf16, strided<[1]>, #hivm.address_space<ub>>
// CHECK: scf.for {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (memref<64xf16, #hivm.address_space<ub>>)
// CHECK: "test.use"(%[[B]]) : (memref<64xf16, #hivm.address_space<ub>>) -> ()
// CHECK: call @helper(%{{.*}}) : (memref<64xf16, #hivm.address_space<ub>>) -> ()
// CHECK-LABEL: func.func @helper(%arg0: memref<64xf16, #hivm.address_space<ub>>)
// CHECK-SAME: hivm.vector_function
module {
  func.func @vec(%gm: memref<?xf16>, %n: index) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloc() : memref<64xf16>
    %half = memref.subview %a[0] [32] [1] : memref<64xf16> to memref<32xf16, strided<[1]>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%b = %a) -> (memref<64xf16>) {
      "test.use"(%b) : (memref<64xf16>) -> ()
      scf.yield %b : memref<64xf16>
    }
    func.call @helper(%r) : (memref<64xf16>) -> ()
    return
  }
  func.func @helper(%x: memref<64xf16>) attributes {hivm.vector_function, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    return
  }
}

// -----

// On the cube: matmul operands in L1 and L0C, other buffers in L1; an
// external device declaration takes GM; HOST code is left as it is.
// CHECK-LABEL: func.func private @ext(memref<4xf32, #hivm.address_space<gm>>) -> memref<4xf32, #hivm.address_space<gm>>
// CHECK-LABEL: func.func @cube(
// CHECK: memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK: memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK: memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
// CHECK: memref.alloc() : memref<8xf32, #hivm.address_space<cbuf>>
// CHECK-LABEL: func.func @host(%arg0: memref<4xf32>)
module {
  func.func private @ext(memref<4xf32>) -> memref<4xf32> attributes {hacc.function_kind = #hacc.function_kind<DEVICE>}
  func.func @cube() attributes {hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c16 = arith.constant 16 : index
    %true = arith.constant true
    %a = memref.alloc() : memref<16x16xf16>
    %b = memref.alloc() : memref<16x16xf16>
    %c = memref.alloc() : memref<16x16xf32>
    %other = memref.alloc() : memref<8xf32>
    hivm.hir.mmadL1 ins(%a, %b, %true, %c16, %c16, %c16 : memref<16x16xf16>, memref<16x16xf16>, i1, index, index, index) outs(%c : memref<16x16xf32>)
    return
  }
  func.func @host(%x: memref<4xf32>) attributes {hacc.function_kind = #hacc.function_kind<HOST>} {
    return
  }
}
