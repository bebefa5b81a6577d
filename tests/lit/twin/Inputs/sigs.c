/* A C implementation with its own descriptor type. */
#include <stdint.h>

typedef struct {
  double *allocated;
  double *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} memref_1d_f64;

void _mlir_ciface_c_doubles(memref_1d_f64 *src, memref_1d_f64 *dst) {
  for (int64_t i = 0; i < dst->sizes[0]; i++)
    dst->aligned[dst->offset + i] = 2 * src->aligned[src->offset + i];
}
