// Adds 2 to every element (a distinct library per file, for the cache tests).
#include "memref.h"

extern "C" void _mlir_ciface_bump(memref_t<float, 1> *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++)
    m->aligned[m->offset + i * m->strides[0]] += 2.0f;
}
