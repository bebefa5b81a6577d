// RUN: hivm-opt -hivm-alloc-extra-buffer -verify-diagnostics -split-input-file %s

func.func @few_operands(%dst: memref<64xi32>, %off: memref<32xi32>) {
  // expected-error @+1 {{indirect atomic requires src, offset and value operands to allocate extra temp buffer}}
  hivm.hir.custom {extra_attr = "operate=or"} "__builtin_indirect_atomic" ins(%dst, %off : memref<64xi32>, memref<32xi32>) outs(%dst : memref<64xi32>)
  return
}

// -----

func.func @dynamic_offsets(%dst: memref<64xi32>, %off: memref<?xi32>, %val: memref<?xi32>) {
  // expected-error @+1 {{indirect atomic requires static offset shape to allocate extra temp buffer}}
  hivm.hir.custom {extra_attr = "scope=cta, operate=and"} "__builtin_indirect_atomic" ins(%dst, %off, %val : memref<64xi32>, memref<?xi32>, memref<?xi32>) outs(%dst : memref<64xi32>)
  return
}
