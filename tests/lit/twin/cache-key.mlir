// What goes into a cached library is keyed field by field: a path and the
// content after it never run together. k.cc is k.c without its first byte,
// so path + content spell the same bytes; the C++ file must be compiled on
// its own (and fails: `har` is no type), not take the C file's library.
// RUN: rm -rf %t.ck && mkdir -p %t.ck && cp %S/Inputs/bump_c.c %t.ck/k.c && tail -c +2 %t.ck/k.c > %t.ck/k.cc
// RUN: HIVM_TWIN_CACHE=%t.ck/cache hivm-run %s --impl %t.ck/k.c --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=C
// RUN: not env HIVM_TWIN_CACHE=%t.ck/cache hivm-run %s --impl %t.ck/k.cc --arg zeros:4xf32 2>&1 | FileCheck %s --check-prefix=CC
// C: [7, 7, 7, 7]
// CC: error: compiling {{.*}}k.cc for the host failed
// The compiler is part of the key by what it is, not only by its name: the
// same CXX path, now another compiler (here a wrapper that defines what the
// implementation adds), builds afresh.
// RUN: cp %S/Inputs/memref.h %t.ck/ && printf '#include "memref.h"\nextern "C" void _mlir_ciface_bump(memref_t<float, 1> *m) { for (int64_t i = 0; i < m->sizes[0]; i++) m->aligned[i] += ADD; }\n' > %t.ck/add.cpp
// RUN: printf '#!/bin/sh\nexec c++ -DADD=2 "$@"\n' > %t.ck/cxx && chmod +x %t.ck/cxx && CXX=%t.ck/cxx HIVM_TWIN_CACHE=%t.ck/cache hivm-run %s --impl %t.ck/add.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=TWO
// RUN: printf '#!/bin/sh\nexec c++ -DADD=30 "$@"\n' > %t.ck/cxx && touch -d '1 hour ago' %t.ck/cxx && CXX=%t.ck/cxx HIVM_TWIN_CACHE=%t.ck/cache hivm-run %s --impl %t.ck/add.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=THIRTY
// TWO: [2, 2, 2, 2]
// THIRTY: [30, 30, 30, 30]
// A shared library given with --impl is linked without a run path to the
// folder it came from (anyone who may write there would choose what the
// implementation loads): the entry keeps its own copy, found through $ORIGIN.
// RUN: mkdir -p %t.ck/plantable && printf 'float lib_value(void) { return 5.0f; }\n' > %t.ck/v.c && cc -shared -fPIC -Wl,-soname,libvalue.so.1 %t.ck/v.c -o %t.ck/plantable/libvalue.so
// RUN: HIVM_TWIN_CACHE=%t.ck/rp hivm-run %s --impl %S/Inputs/uses_lib.cpp --impl %t.ck/plantable/libvalue.so --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=FIVE
// RUN: readelf -d %t.ck/rp/*/lib.so | FileCheck %s --check-prefix=RUNPATH
// FIVE: [5, 5, 5, 5]
// RUNPATH-NOT: plantable
// RUNPATH: (NEEDED) {{.*}}[libvalue.so.1]
// RUNPATH-NOT: plantable
// RUNPATH: (RUNPATH) {{.*}}[$ORIGIN/so1]
// RUNPATH-NOT: plantable
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump"} "bump" outs(%m : memref<4xf32>)
  return
}
