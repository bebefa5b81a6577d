// Custom-op implementations are checked against the files they are linked
// with, at compile time, with errors at the op.
// Inputs/custom_add.bc is `clang-22 -O1 -c -emit-llvm Inputs/custom_add.c`.
// RUN: hivm-opt %s -split-input-file --link-aicore-bitcode=%S/Inputs/custom_add.bc | FileCheck %s --check-prefix=OK
// RUN: gcc -c %S/Inputs/custom_add.c -o %t.o
// RUN: gcc -shared -fPIC %S/Inputs/custom_add.c -o %t.so
// RUN: hivm-opt %s -split-input-file --link-aicore-bitcode=%t.o > /dev/null
// RUN: hivm-opt %s -split-input-file --link-aicore-bitcode=%t.so > /dev/null
// RUN: not hivm-opt %s -split-input-file --link-aicore-bitcode=%S/Inputs/custom_add.bc,%t.o 2>&1 | FileCheck %s --check-prefix=TWICE

// OK: hivm.hir.custom
// TWICE: check-implementations.mlir:[[@LINE+2]]:3: error: 'hivm.hir.custom' op implementation '_mlir_ciface_custom_add_int32' is defined more than once: in {{.*}}custom_add.bc and {{.*}}.o
func.func @defined(%a: memref<32xi32>, %b: memref<32xi32>, %o: memref<32xi32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "custom_add_int32"} "add" ins(%a, %b : memref<32xi32>, memref<32xi32>) outs(%o : memref<32xi32>)
  return
}
