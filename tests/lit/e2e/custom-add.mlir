// End to end on the host: the bundled custom-add kernel is bufferized and
// lowered by hivm-opt, compiled by upstream MLIR and clang, linked with its C
// implementation, and run. out[i] = i + (1000 * i - 7).
// REQUIRES: llvm-22
// RUN: %S/../../../scripts/host-compile.sh %S/../../../examples/custom-add.mlir %S/../../../examples/custom_add.c -o %t-add.so
// RUN: ${LLVM_BIN:-/usr/lib/llvm-22/bin}/clang %S/Inputs/run_custom_add.c %t-add.so -Wl,-rpath,$(dirname %t) -o %t-add && %t-add | FileCheck %s
// CHECK: -7 994 1995 2996 3997 4998 5999 7000 8001 9002 10003 11004 12005 13006 14007 15008 16009 17010 18011 19012 20013 21014 22015 23016 24017 25018 26019 27020 28021 29022 30023 31024{{$}}

// A kernel whose callee no implementation defines is rejected before any
// code is generated, at the op, naming the files searched.
// RUN: not %S/../../../scripts/host-compile.sh %s %S/../../../examples/custom_add.c -o %t-bad.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: custom-add.mlir:[[@LINE+2]]:3: error: 'hivm.hir.custom' op implementation '_mlir_ciface_custom_mul_int32' is not defined; searched {{.*}}/0-custom_add.c.o
func.func @bad(%a: memref<32xi32>, %o: memref<32xi32>) attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "custom_mul_int32"} "mul" ins(%a : memref<32xi32>) outs(%o : memref<32xi32>)
  return
}

// The CPU twin runs the same kernel with the same C implementation and must
// print the same numbers as the compiled kernel above.
// RUN: python3 %S/../../../scripts/npy.py %t-a.npy i32 32 range:0:1 && python3 %S/../../../scripts/npy.py %t-b.npy i32 32 range:-7:1000
// RUN: hivm-run %S/../../../examples/custom-add.mlir --impl %S/../../../examples/custom_add.c --arg zeros:32xi32 --arg %t-a.npy --arg %t-b.npy --print 0 | FileCheck %s --check-prefix=TWIN
// TWIN: [-7, 994, 1995, 2996, 3997, 4998, 5999, 7000, 8001, 9002, 10003, 11004, 12005, 13006, 14007, 15008, 16009, 17010, 18011, 19012, 20013, 21014, 22015, 23016, 24017, 25018, 26019, 27020, 28021, 29022, 30023, 31024]
