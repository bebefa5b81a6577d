// Calls into a shared library given with --impl (cache-key.mlir).
#include "memref.h"

extern "C" float lib_value(void);

extern "C" void _mlir_ciface_bump(memref_t<float, 1> *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++)
    m->aligned[m->offset + i * m->strides[0]] += lib_value();
}
