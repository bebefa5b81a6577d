char unused; /* the C++ twin of this file, cache-key.mlir's k.cc, lacks the first letter */
#include <stdint.h>

typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} memref_1d_f32;

void _mlir_ciface_bump(memref_1d_f32 *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++)
    m->aligned[m->offset + i * m->strides[0]] += 7.0f;
}
