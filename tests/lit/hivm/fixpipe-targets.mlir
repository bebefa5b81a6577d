// The fixpipe verifier's target rules: writing to UB and NZ2DN are for the
// Ascend 950 generation, which includes the Ascend910_95xx parts.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @to_ub_on_910_9589
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%arg0 : memref<16x16xf32, #hivm.address_space<cc>>) outs(%arg1 : memref<16x16xf32, #hivm.address_space<ub>>)
module attributes {hacc.target = #hacc.target<"Ascend910_9589">} {
  func.func @to_ub_on_910_9589(%c: memref<16x16xf32, #hivm.address_space<cc>>, %u: memref<16x16xf32, #hivm.address_space<ub>>) {
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    return
  }
}

// -----

// CHECK-LABEL: func.func @nz2dn_on_950pr
module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} {
  func.func @nz2dn_on_950pr(%c: memref<16x16xf32, #hivm.address_space<cc>>, %g: memref<16x16xf32, #hivm.address_space<gm>>) {
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2dn>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @to_ub_on_910b(%c: memref<16x16xf32, #hivm.address_space<cc>>, %u: memref<16x16xf32, #hivm.address_space<ub>>) {
    // expected-error @+1 {{'hivm.hir.fixpipe' op dst=UB is only supported on Ascend950!}}
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910_9392">} {
  func.func @nz2dn_on_910_93(%c: memref<16x16xf32, #hivm.address_space<cc>>, %g: memref<16x16xf32, #hivm.address_space<gm>>) {
    // expected-error @+1 {{'hivm.hir.fixpipe' op NZ2DN is only supported on Ascend950!}}
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2dn>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
