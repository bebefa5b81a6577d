// Host implementation of the custom op in examples/custom-add.mlir: the
// `_mlir_ciface_` entry takes ins, then outs, as MLIR memref descriptors.
#include <stdint.h>

typedef struct {
  int32_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref_i32_1d;

static int32_t *at(const memref_i32_1d *m, int64_t i) { return m->aligned + m->offset + i * m->strides[0]; }

void _mlir_ciface_custom_add_int32(memref_i32_1d *lhs, memref_i32_1d *rhs, memref_i32_1d *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i) *at(out, i) = *at(lhs, i) + *at(rhs, i);
}
