// A load with a pad value but no padding elements (what the compile path
// leaves once hivm-aggregated-decompose-op has split the initialisation off)
// copies its source as a plain load; the pad value is not used.
// RUN: hivm-run %s --arg %S/../passes/Inputs/ones8.npy --arg zeros:8xf32 --print 1 | FileCheck %s
// CHECK: {{.*}}[1, 1, 1, 1, 1, 1, 1, 1]
func.func @plain(%g: memref<8xf32, #hivm.address_space<gm>>, %o: memref<8xf32, #hivm.address_space<gm>>) {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %u = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%g : memref<8xf32, #hivm.address_space<gm>>) outs(%u : memref<8xf32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f32 left_padding_num = %c0 : index
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%u : memref<8xf32, #hivm.address_space<ub>>) outs(%o : memref<8xf32, #hivm.address_space<gm>>)
  return
}
