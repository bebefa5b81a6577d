// RUN: hivm-opt -split-input-file --pass-pipeline="builtin.module(func.func(hivm-alloc-extra-buffer))" %s 2>/dev/null | FileCheck %s
// RUN: hivm-opt -split-input-file -hivm-alloc-extra-buffer %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN

// Buffers are allocated in attribute order, right before the op.
// CHECK-LABEL: func.func @two_buffers
// CHECK:         %alloc = memref.alloc() : memref<512xf32>
// CHECK-NEXT:    %alloc_0 = memref.alloc() : memref<128xf16>
// CHECK-NEXT:    hivm.hir.custom {{.*}} outs(%arg0 : memref<4xf32>) tmps(%alloc, %alloc_0 : memref<512xf32>, memref<128xf16>)
func.func @two_buffers(%a: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32, f16], extra_buffers_sizes = [512, 128]} "u.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

// Host functions are left alone; existing tmps are kept.
// CHECK-LABEL: func.func @host
// CHECK-NOT:     memref.alloc
// CHECK-LABEL: func.func @has_tmps
// CHECK-NOT:     memref.alloc
// CHECK:         tmps(%arg1 : memref<8xf32>)
func.func @host(%a: memref<4xf32>) attributes {hacc.function_kind = #hacc.function_kind<HOST>} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32], extra_buffers_sizes = [8]} "u.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
func.func @has_tmps(%a: memref<4xf32>, %t: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32], extra_buffers_sizes = [8]} "u.x" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) tmps(%t : memref<8xf32>)
  return
}

// -----

// A macro that already has tmps gets a warning, and the module still prints.
// WARN: alloc-extra-buffer.mlir:[[@LINE+3]]:3: warning: already has extra temp buffers
// CHECK-LABEL: func.func @macro_warns
func.func @macro_warns(%a: memref<4xf32>, %t: memref<8xf32>) {
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k"} "u.m" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) tmps(%t : memref<8xf32>)
  return
}

// -----

// Bitwise indirect atomics get one buffer of numel(offsets) x elem(values).
// CHECK-LABEL: func.func @indirect_atomic
// CHECK:         %alloc = memref.alloc() : memref<32xi32>
// CHECK:         "__builtin_indirect_atomic" ins({{.*}}) outs(%arg0 : memref<64xi32>) tmps(%alloc : memref<32xi32>)
func.func @indirect_atomic(%dst: memref<64xi32>, %off: memref<4x8xi32>, %val: memref<4x8xi32>) {
  hivm.hir.custom {extra_attr = "operate=xor"} "__builtin_indirect_atomic" ins(%dst, %off, %val : memref<64xi32>, memref<4x8xi32>, memref<4x8xi32>) outs(%dst : memref<64xi32>)
  return
}
