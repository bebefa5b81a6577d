// Implementations that write a shared output with plain C stores.
#include <stdint.h>

typedef struct { float *allocated; float *aligned; int64_t offset; int64_t sizes[1]; int64_t strides[1]; } vec;

// Each block writes its own element: apart from the other blocks.
extern "C" void _mlir_ciface_own_slot(vec *out) {
  int64_t b = get_block_idx();
  out->aligned[out->offset + b] = (float)(b + 5);
}

// Every block writes element 0, each its own value: the last block wins.
extern "C" void _mlir_ciface_same_slot(vec *out) {
  out->aligned[out->offset] = (float)(get_block_idx() + 5);
}
