// An Ascend intrinsic the twin does not emulate fails with the twin's own
// message naming it (C++ and C), not only the compiler's "not declared";
// a name that is no intrinsic at all is said to be undeclared, with the
// list of what the twin does emulate.
// RUN: rm -rf %t.ui && mkdir -p %t.ui
// RUN: printf 'extern "C" void _mlir_ciface_k(void *m) { vcadd((__ubuf__ float *)0, (__ubuf__ float *)0, 1, 1, 1, 8); }\n' > %t.ui/listed.cpp
// RUN: not hivm-run %s --impl %t.ui/listed.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=LISTED
// LISTED: error: compiling {{.*}}listed.cpp for the host failed
// LISTED-NEXT: the CPU twin does not emulate the Ascend intrinsic 'vcadd'
// LISTED-NEXT: the twin emulates: set_flag, wait_flag, pipe_barrier, {{.*}}, vadd, {{.*}}
// RUN: printf 'void _mlir_ciface_k(void *m) { vcmax(m, m, 1); }\n' > %t.ui/listed.c
// RUN: not hivm-run %s --impl %t.ui/listed.c --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=LISTEDC
// LISTEDC: the CPU twin does not emulate the Ascend intrinsic 'vcmax'
// RUN: printf 'extern "C" void _mlir_ciface_k(void *m) { vfrobnicate(m); }\n' > %t.ui/unknown.cpp
// RUN: not hivm-run %s --impl %t.ui/unknown.cpp --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: compiling {{.*}}unknown.cpp for the host failed
// UNKNOWN-NEXT: 'vfrobnicate' is not declared: neither the implementation nor the CPU twin's header defines it
// UNKNOWN-NEXT: the twin emulates: {{.*}}copy_gm_to_ubuf_align_b32{{.*}}
// RUN: printf 'void _mlir_ciface_k(void *m) { vfrobnicate(m); }\n' > %t.ui/unknown.c
// RUN: not hivm-run %s --impl %t.ui/unknown.c --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=UNKNOWNC
// UNKNOWNC: 'vfrobnicate' is not declared
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "k" outs(%m : memref<4xf32>)
  return
}
