// RUN: hivm-opt %s -split-input-file -hivm-plan-memory | FileCheck %s --check-prefixes=CHECK,FIRST
// RUN: hivm-opt %s -split-input-file -hivm-plan-memory=plan-memory-strategy=largest-first | FileCheck %s --check-prefixes=CHECK,LARGEST

// Four 64 KiB buffers in a 192 KiB UB: side by side they need 256 KiB, so
// buffers dead for each other's whole lives share bytes. %a and %b are
// stored before %c and %d are loaded; %d reads %a's place only after %a's
// last use. Stores read without writing UB, so nothing is taken in place.
// CHECK-LABEL: func.func @phases(
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[S:.*]] = arith.constant 65536 : i64
// CHECK: hivm.hir.pointer_cast(%[[Z]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast(%[[S]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast(%[[Z]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast(%[[S]]) : memref<16384xf32, #hivm.address_space<ub>>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @phases(%g: memref<16384xf32, #hivm.address_space<gm>>, %o: memref<16384xf32, #hivm.address_space<gm>>) {
    %a = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%a : memref<16384xf32, #hivm.address_space<ub>>)
    %b = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%b : memref<16384xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%a : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    hivm.hir.store ins(%b : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    %c = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%c : memref<16384xf32, #hivm.address_space<ub>>)
    %d = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%d : memref<16384xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%c : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    hivm.hir.store ins(%d : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// A buffer from before a loop and used in it lives to the loop's end, so
// the body's own buffer (dead at the end of each iteration) gets a third
// place; after the loop and the last use of %a, all three are free again.
// CHECK-LABEL: func.func @around_loop(
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[S:.*]] = arith.constant 65536 : i64
// CHECK-DAG: %[[T:.*]] = arith.constant 131072 : i64
// CHECK: hivm.hir.pointer_cast(%[[Z]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast(%[[S]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: scf.for
// CHECK: hivm.hir.pointer_cast(%[[T]]) : memref<16384xf32, #hivm.address_space<ub>>
// CHECK: }
// CHECK: hivm.hir.pointer_cast(%[[Z]]) : memref<16384xf32, #hivm.address_space<ub>>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @around_loop(%g: memref<16384xf32, #hivm.address_space<gm>>, %o: memref<16384xf32, #hivm.address_space<gm>>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%a : memref<16384xf32, #hivm.address_space<ub>>)
    %b = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%b : memref<16384xf32, #hivm.address_space<ub>>)
    scf.for %i = %c0 to %n step %c1 {
      %t = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
      hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%t : memref<16384xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%t : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
      hivm.hir.store ins(%b : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    }
    hivm.hir.store ins(%a : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    %e = memref.alloc() : memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16384xf32, #hivm.address_space<gm>>) outs(%e : memref<16384xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%e : memref<16384xf32, #hivm.address_space<ub>>) outs(%o : memref<16384xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// 72 + 32 + 96 KiB: %b dies before %c is written, %a lives throughout. In
// write order %c takes %b's place above %a; biggest first, %c goes to 0,
// %a above it, and %b below %a (it is dead before %c is written).
// CHECK-LABEL: func.func @order(
// FIRST: hivm.hir.pointer_cast(%c0_i64) : memref<18432xf32, #hivm.address_space<ub>>
// FIRST: hivm.hir.pointer_cast(%c73728_i64) : memref<8192xf32, #hivm.address_space<ub>>
// FIRST: hivm.hir.pointer_cast(%c73728_i64) : memref<24576xf32, #hivm.address_space<ub>>
// LARGEST: hivm.hir.pointer_cast(%c98304_i64) : memref<18432xf32, #hivm.address_space<ub>>
// LARGEST: hivm.hir.pointer_cast(%c0_i64) : memref<8192xf32, #hivm.address_space<ub>>
// LARGEST: hivm.hir.pointer_cast(%c0_i64) : memref<24576xf32, #hivm.address_space<ub>>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @order(%ga: memref<18432xf32, #hivm.address_space<gm>>, %gb: memref<8192xf32, #hivm.address_space<gm>>, %gc: memref<24576xf32, #hivm.address_space<gm>>) {
    %a = memref.alloc() : memref<18432xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%ga : memref<18432xf32, #hivm.address_space<gm>>) outs(%a : memref<18432xf32, #hivm.address_space<ub>>)
    %b = memref.alloc() : memref<8192xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%gb : memref<8192xf32, #hivm.address_space<gm>>) outs(%b : memref<8192xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%b : memref<8192xf32, #hivm.address_space<ub>>) outs(%gb : memref<8192xf32, #hivm.address_space<gm>>)
    %c = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%gc : memref<24576xf32, #hivm.address_space<gm>>) outs(%c : memref<24576xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%c : memref<24576xf32, #hivm.address_space<ub>>) outs(%gc : memref<24576xf32, #hivm.address_space<gm>>)
    hivm.hir.store ins(%a : memref<18432xf32, #hivm.address_space<ub>>) outs(%ga : memref<18432xf32, #hivm.address_space<gm>>)
    return
  }
}

// -----

// In a region that runs its body more than once, %b is read (stored) before
// it is written: its life starts with the region, so the body's own %t
// cannot take its place, though %t dies before %b's first write; %t takes
// the place of %a, dead by then.
// CHECK-LABEL: func.func @read_first(
// CHECK: hivm.hir.pointer_cast(%c0_i64) : memref<24576xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast(%c98304_i64) : memref<24576xf32, #hivm.address_space<ub>>
// CHECK: scf.parallel
// CHECK: hivm.hir.pointer_cast(%c0_i64) : memref<24576xf32, #hivm.address_space<ub>>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @read_first(%g: memref<24576xf32, #hivm.address_space<gm>>, %o: memref<24576xf32, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %a = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<24576xf32, #hivm.address_space<gm>>) outs(%a : memref<24576xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%a : memref<24576xf32, #hivm.address_space<ub>>) outs(%o : memref<24576xf32, #hivm.address_space<gm>>)
    %b = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
    scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
      hivm.hir.store ins(%b : memref<24576xf32, #hivm.address_space<ub>>) outs(%o : memref<24576xf32, #hivm.address_space<gm>>)
      %t = memref.alloc() : memref<24576xf32, #hivm.address_space<ub>>
      hivm.hir.load ins(%g : memref<24576xf32, #hivm.address_space<gm>>) outs(%t : memref<24576xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%t : memref<24576xf32, #hivm.address_space<ub>>) outs(%o : memref<24576xf32, #hivm.address_space<gm>>)
      hivm.hir.load ins(%g : memref<24576xf32, #hivm.address_space<gm>>) outs(%b : memref<24576xf32, #hivm.address_space<ub>>)
      scf.reduce
    }
    return
  }
}
