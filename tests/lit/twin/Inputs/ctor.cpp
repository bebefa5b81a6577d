// A library whose static constructor misbehaves as HIVM_TEST_CTOR says
// (constructors.mlir): it runs wherever the library is loaded.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include "memref.h"

__attribute__((constructor)) static void misbehave() {
  const char *what = getenv("HIVM_TEST_CTOR");
  if (!what)
    return;
  if (!strcmp(what, "segv"))
    *(volatile int *)16 = 1;
  if (!strcmp(what, "abort"))
    abort();
  if (!strcmp(what, "exit"))
    exit(7);
  if (!strcmp(what, "ignore-sigint"))
    signal(SIGINT, SIG_IGN);
}

extern "C" void _mlir_ciface_bump(memref_t<float, 1> *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++)
    m->aligned[m->offset + i * m->strides[0]] += 1.0f;
}
