// The twin checks who owns each on-chip byte as a planned kernel runs: a
// read through a buffer of bytes it wrote that another buffer has written
// since is an error at the read naming both buffers' ops; so is an
// elementwise op writing over its input at other elements. These are
// hivm-plan-memory's old plans of tests/lit/twin/plan-memory-sound.mlir.
// RUN: python3 %root/scripts/npy.py %t.s8.npy f32 8 range:1:1
// RUN: python3 %root/scripts/npy.py %t.s64.npy f32 64 range:1:1
// RUN: not hivm-run %s --entry init_read --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not hivm-run %s --entry caller --arg %t.s8.npy --arg zeros:8xf32 --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: not hivm-run %s --entry dynamic_offsets --arg %t.s64.npy --arg zeros:32xf32 --arg 0 --arg 16 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not hivm-run %s --entry scalar_loop --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=SCALAR
// Ops without operand segment sizes write their `dst` too: a broadcast, a cumulative sum, and a
// broadcast into part of a live buffer.
// RUN: not hivm-run %s --entry over_by_vbrc --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=VBRC
// RUN: not hivm-run %s --entry over_by_vcumsum --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=VCUM
// RUN: not hivm-run %s --entry part_by_vbrc --arg %t.s8.npy --arg zeros:8xf32 2>&1 | FileCheck %s --check-prefix=PART
// RUN: hivm-run %s --entry reuse --arg %t.s8.npy --arg zeros:8xf32 --print 1 2>&1 | FileCheck %s --check-prefix=REUSE --implicit-check-not=error

#ub = #hivm.address_space<ub>
#gm = #hivm.address_space<gm>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  // LOOP: ownership.mlir:[[@LINE+14]]:7: error: reads UB byte 0 through the buffer of 'hivm.hir.pointer_cast' at {{.*}}, but since it wrote that byte the buffer of 'hivm.hir.pointer_cast' at {{.*}} has written over it: two live buffers share these bytes (a wrong memory plan?)
  // LOOP: note: the buffer read is made by 'hivm.hir.pointer_cast' at {{.*}}ownership.mlir:[[@LINE+8]]:10
  // LOOP: note: the buffer that took the bytes is made by 'hivm.hir.pointer_cast' at {{.*}}ownership.mlir:[[@LINE+11]]:12
  // LOOP: note: its last write was by 'hivm.hir.vadd'
  func.func @init_read(%arg0: memref<8xf32, #gm>, %arg1: memref<8xf32, #gm>) {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %0 = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<8xf32, #gm>) outs(%0 : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %1 = scf.for %arg2 = %c0 to %c3 step %c1 iter_args(%arg3 = %0) -> (memref<8xf32, #ub>) {
      %2 = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
      hivm.hir.vadd ins(%arg3, %0 : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%2 : memref<8xf32, #ub>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      scf.yield %2 : memref<8xf32, #ub>
    }
    hivm.hir.store ins(%1 : memref<8xf32, #ub>) outs(%arg1 : memref<8xf32, #gm>)
    return
  }

  // SHIFT: ownership.mlir:[[@LINE+9]]:5: error: writes bytes [64, 192) over its input's bytes [0, 128) at other elements: in place, an elementwise op must write each element where it reads it
  func.func @dynamic_offsets(%arg0: memref<64xf32, #gm>, %arg1: memref<32xf32, #gm>, %arg2: index, %arg3: index) {
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #ub>
    %1 = hivm.hir.pointer_cast(%c0_i64) : memref<64xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<64xf32, #gm>) outs(%0 : memref<64xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %s0 = memref.subview %0[%arg2] [32] [1] : memref<64xf32, #ub> to memref<32xf32, strided<[1], offset: ?>, #ub>
    %s1 = memref.subview %1[%arg3] [32] [1] : memref<64xf32, #ub> to memref<32xf32, strided<[1], offset: ?>, #ub>
    hivm.hir.vadd ins(%s0, %s0 : memref<32xf32, strided<[1], offset: ?>, #ub>, memref<32xf32, strided<[1], offset: ?>, #ub>) outs(%s1 : memref<32xf32, strided<[1], offset: ?>, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%s1 : memref<32xf32, strided<[1], offset: ?>, #ub>) outs(%arg1 : memref<32xf32, #gm>)
    return
  }

  func.func @doubler(%arg0: memref<8xf32, #gm>, %arg1: memref<8xf32, #gm>) {
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<8xf32, #gm>) outs(%0 : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%0, %0 : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%0 : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%0 : memref<8xf32, #ub>) outs(%arg1 : memref<8xf32, #gm>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
  // CALL: ownership.mlir:[[@LINE+8]]:5: error: reads UB byte 0 through the buffer of 'hivm.hir.pointer_cast' at {{.*}}, but since it wrote that byte the buffer of 'hivm.hir.pointer_cast' at {{.*}} has written over it
  // CALL: note: the buffer that took the bytes is made by 'hivm.hir.pointer_cast' at {{.*}}ownership.mlir:[[@LINE-10]]:10
  func.func @caller(%arg0: memref<8xf32, #gm>, %arg1: memref<8xf32, #gm>, %arg2: memref<8xf32, #gm>) {
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<8xf32, #gm>) outs(%0 : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    call @doubler(%arg0, %arg2) : (memref<8xf32, #gm>, memref<8xf32, #gm>) -> ()
    hivm.hir.vadd ins(%0, %0 : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%0 : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%0 : memref<8xf32, #ub>) outs(%arg1 : memref<8xf32, #gm>)
    return
  }

  // A scalar loop (run by the compiled tier) counts as one op.
  // SCALAR: ownership.mlir:[[@LINE+15]]:5: error: reads UB byte 0 through the buffer of 'hivm.hir.pointer_cast'
  // SCALAR: note: the buffer that took the bytes is made by 'hivm.hir.pointer_cast' at {{.*}}ownership.mlir:[[@LINE+8]]:10
  func.func @scalar_loop(%arg0: memref<8xf32, #gm>, %arg1: memref<8xf32, #gm>) {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %a = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    %b = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<8xf32, #gm>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %one, %b[%i] : memref<8xf32, #ub>
    }
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%a : memref<8xf32, #ub>) outs(%arg1 : memref<8xf32, #gm>)
    return
  }

  // Two buffers at one address one after the other, and an in-place op
  // over the same elements: fine.
  // REUSE: [4, 8, 12, 16, 20, 24, 28, 32]
  func.func @reuse(%arg0: memref<8xf32, #gm>, %arg1: memref<8xf32, #gm>) {
    %c0_i64 = arith.constant 0 : i64
    %c32_i64 = arith.constant 32 : i64
    %a = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    %b = hivm.hir.pointer_cast(%c32_i64) : memref<8xf32, #ub>
    %c = hivm.hir.pointer_cast(%c0_i64) : memref<8xf32, #ub>
    hivm.hir.load ins(%arg0 : memref<8xf32, #gm>) outs(%a : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%a, %a : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%b : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%b, %b : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%c : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%c : memref<8xf32, #ub>) outs(%arg1 : memref<8xf32, #gm>)
    return
  }
  // VBRC: ownership.mlir:[[@LINE+12]]:5: error: reads UB byte 0 through the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+4]]:10, but since it wrote that byte the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+8]]:10 has written over it
  func.func @over_by_vbrc(%in: memref<8xf32, #gm>, %out: memref<8xf32, #gm>) {
    %at0 = arith.constant 0 : i64
    %at64 = arith.constant 64 : i64
    %x = hivm.hir.pointer_cast(%at0) : memref<8xf32, #ub>
    hivm.hir.load ins(%in : memref<8xf32, #gm>) outs(%x : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %two = arith.constant 2.0 : f32
    %y = hivm.hir.pointer_cast(%at0) : memref<8xf32, #ub>
    hivm.hir.vbrc ins(%two : f32) outs(%y : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r = hivm.hir.pointer_cast(%at64) : memref<8xf32, #ub>
    hivm.hir.vmul ins(%x, %y : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%r : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%out : memref<8xf32, #gm>)
    return
  }

  // VCUM: ownership.mlir:[[@LINE+13]]:5: error: reads UB byte 0 through the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+4]]:10, but since it wrote that byte the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+10]]:10 has written over it
  func.func @over_by_vcumsum(%in: memref<8xf32, #gm>, %out: memref<8xf32, #gm>) {
    %at0 = arith.constant 0 : i64
    %at64 = arith.constant 64 : i64
    %x = hivm.hir.pointer_cast(%at0) : memref<8xf32, #ub>
    %r = hivm.hir.pointer_cast(%at64) : memref<8xf32, #ub>
    hivm.hir.load ins(%in : memref<8xf32, #gm>) outs(%x : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.load ins(%in : memref<8xf32, #gm>) outs(%r : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %y = hivm.hir.pointer_cast(%at0) : memref<8xf32, #ub>
    hivm.hir.vcumsum ins(%r : memref<8xf32, #ub>) outs(%y : memref<8xf32, #ub>) cum_dims = [0] reverse = false
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %y : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%r : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%out : memref<8xf32, #gm>)
    return
  }

  // PART: ownership.mlir:[[@LINE+13]]:5: error: reads UB byte 16 through the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+5]]:10, but since it wrote that byte the buffer of 'hivm.hir.pointer_cast' at {{[^ ]+}}ownership.mlir:[[@LINE+6]]:10 has written over it
  func.func @part_by_vbrc(%in: memref<8xf32, #gm>, %out: memref<8xf32, #gm>) {
    %at0 = arith.constant 0 : i64
    %at16 = arith.constant 16 : i64
    %at64 = arith.constant 64 : i64
    %x = hivm.hir.pointer_cast(%at0) : memref<8xf32, #ub>
    %y = hivm.hir.pointer_cast(%at16) : memref<4xf32, #ub>
    hivm.hir.load ins(%in : memref<8xf32, #gm>) outs(%x : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %one = arith.constant 1.0 : f32
    hivm.hir.vbrc ins(%one : f32) outs(%y : memref<4xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    %r = hivm.hir.pointer_cast(%at64) : memref<8xf32, #ub>
    hivm.hir.vadd ins(%x, %x : memref<8xf32, #ub>, memref<8xf32, #ub>) outs(%r : memref<8xf32, #ub>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%r : memref<8xf32, #ub>) outs(%out : memref<8xf32, #gm>)
    return
  }
}
