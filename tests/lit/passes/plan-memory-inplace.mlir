// hivm-plan-memory's in-place reuse: an elementwise op's output takes over
// an input that dies there (same size or smaller, the op able to run in
// place), so a chain load -> vadd -> vexp -> narrowing vcast needs one
// buffer; a double-buffered load buffer is not handed to a double-buffered
// store buffer (the next load would wait for the store).
// RUN: hivm-opt %s -split-input-file -hivm-plan-memory | FileCheck %s

// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: hivm.hir.pointer_cast(%[[C0]]) : memref<256xf32
// CHECK-NEXT: hivm.hir.pointer_cast(%[[C0]]) : memref<256xf32
// CHECK-NEXT: hivm.hir.pointer_cast(%[[C0]]) : memref<256xf16
// CHECK-NEXT: hivm.hir.pointer_cast(%[[C0]]) : memref<256xf32
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @chain(%src: memref<256xf32, #hivm.address_space<gm>>, %dst: memref<256xf16, #hivm.address_space<gm>>) {
    %a = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    %c = memref.alloc() : memref<256xf16, #hivm.address_space<ub>>
    %d = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<256xf32, #hivm.address_space<gm>>) outs(%a : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%a, %a : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%b : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%b : memref<256xf32, #hivm.address_space<ub>>) outs(%d : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vcast ins(%d : memref<256xf32, #hivm.address_space<ub>>) outs(%c : memref<256xf16, #hivm.address_space<ub>>) round_mode = #hivm.round_mode<rint>
    hivm.hir.store ins(%c : memref<256xf16, #hivm.address_space<ub>>) outs(%dst : memref<256xf16, #hivm.address_space<gm>>)
    return
  }
}

// -----

// CHECK-LABEL: func.func @stall(
// CHECK: %[[OUT:.*]] = hivm.hir.pointer_cast(%c256_i64, %c768_i64)
// CHECK: %[[IN:.*]] = hivm.hir.pointer_cast(%c0_i64, %c512_i64)
// CHECK: hivm.hir.load {{.*}} outs(%[[IN]] :
// CHECK: hivm.hir.vadd {{.*}} outs(%[[OUT]] :
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @stall(%src: memref<64xf32, #hivm.address_space<gm>>, %dst: memref<64xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %in = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
      annotation.mark %in {hivm.multi_buffer = 2 : i32} : memref<64xf32, #hivm.address_space<ub>>
      %out = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
      annotation.mark %out {hivm.multi_buffer = 2 : i32} : memref<64xf32, #hivm.address_space<ub>>
      hivm.hir.load ins(%src : memref<64xf32, #hivm.address_space<gm>>) outs(%in : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%in, %in : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%out : memref<64xf32, #hivm.address_space<ub>>) outs(%dst : memref<64xf32, #hivm.address_space<gm>>)
    }
    return
  }
}
