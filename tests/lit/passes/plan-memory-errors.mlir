// hivm-plan-memory's errors, in upstream's words where it has them.
// RUN: not hivm-opt %s -split-input-file -hivm-plan-memory 2>&1 | FileCheck %s

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  // CHECK: [[@LINE+1]]:3: error: ub overflow, requires 2097152 bits while 1572864 bits available! (possible reason: tiling basic block is too large or block number is more than what user expect due to multi-buffer feature is enabled and some ops need extra local buffer.)
  func.func @too_big(%gm: memref<65536xf32, #hivm.address_space<gm>>, %gm2: memref<32768xf32, #hivm.address_space<gm>>) {
    %a = memref.alloc() : memref<65536xf32, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<32768xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%gm : memref<65536xf32, #hivm.address_space<gm>>) outs(%a : memref<65536xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%a : memref<65536xf32, #hivm.address_space<ub>>) outs(%gm : memref<65536xf32, #hivm.address_space<gm>>)
    hivm.hir.load ins(%gm2 : memref<32768xf32, #hivm.address_space<gm>>) outs(%b : memref<32768xf32, #hivm.address_space<ub>>)
    return
  }
  // CHECK: note: even with buffers that are never live together sharing addresses
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @unwritten() {
    // CHECK: [[@LINE+1]]:10: error: 'memref.alloc' op error: read before first write
    %a = memref.alloc() : memref<4xf32, #hivm.address_space<ub>>
    return
  }
}

// -----

module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @global() {
    // CHECK: [[@LINE+1]]:10: error: Alloc buffer not at UB space!
    %a = memref.alloc() : memref<4xf32>
    return
  }
}

// -----

// CHECK: [[@LINE+1]]:1: error: hivm-plan-memory needs the module's target to size local memories (run hacc-append-device-spec{target=...} first)
func.func @no_target() {
  return
}

// -----

// CHECK: [[@LINE+4]]:10: error: hivm-plan-memory cannot place ub buffers beside this pointer_cast: its addresses or size are not constants
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @dynamic_cast(%src: memref<8xf32, #hivm.address_space<gm>>, %a: i64) {
    %t = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    %p = hivm.hir.pointer_cast(%a) : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<8xf32, #hivm.address_space<gm>>) outs(%t : memref<8xf32, #hivm.address_space<ub>>)
    return
  }
}

// -----

// CHECK: [[@LINE+5]]:5: error: hivm-plan-memory cannot place the buffers of a recursive function: each level of the recursion would need addresses of its own
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @rec(%src: memref<8xf32, #hivm.address_space<gm>>) {
    %t = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%src : memref<8xf32, #hivm.address_space<gm>>) outs(%t : memref<8xf32, #hivm.address_space<ub>>)
    func.call @rec(%src) : (memref<8xf32, #hivm.address_space<gm>>) -> ()
    return
  }
}
