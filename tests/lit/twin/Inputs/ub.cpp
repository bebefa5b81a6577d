// Implementations that stay inside UB but not inside their buffers, and
// ones that use UB scratch correctly.
#include "memref.h"

extern "C" {
// A counter mask of twice the output's length: vrelu writes past `dst`.
void _mlir_ciface_relu_double(memref_t<float, 1> *src, memref_t<float, 1> *dst) {
  set_mask_count();
  set_vector_mask(0, 2 * dst->sizes[0]);
  vrelu(dst->aligned + dst->offset, src->aligned + src->offset, 1, 1, 1, 8, 8);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}

// The same with the right mask.
void _mlir_ciface_relu(memref_t<float, 1> *src, memref_t<float, 1> *dst) {
  set_mask_count();
  set_vector_mask(0, dst->sizes[0]);
  vrelu(dst->aligned + dst->offset, src->aligned + src->offset, 1, 1, 1, 8, 8);
  pipe_barrier(PIPE_V);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}

// Doubles `dst` through scratch at UB byte `at` (an integer address).
static void via_scratch(memref_t<float, 1> *dst, uintptr_t at) {
  float *scratch = (float *)at;
  float *d = dst->aligned + dst->offset;
  set_mask_count();
  set_vector_mask(0, dst->sizes[0]);
  vadds(scratch, d, 2.0f, 1, 1, 1, 8, 8);
  pipe_barrier(PIPE_V);
  vmuls(d, scratch, 1.0f, 1, 1, 1, 8, 8);
  pipe_barrier(PIPE_V);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}

void _mlir_ciface_scratch_at_0(memref_t<float, 1> *dst) { via_scratch(dst, 0); }
void _mlir_ciface_scratch_at_64k(memref_t<float, 1> *dst) { via_scratch(dst, 65536); }
// Scratch that starts 128 bytes before `dst` and runs into it.
void _mlir_ciface_scratch_before(memref_t<float, 1> *dst) {
  float *scratch = (float *)(dst->aligned + dst->offset) - 32;
  set_mask_count();
  set_vector_mask(0, 64);
  vadds(scratch, scratch, 1.0f, 1, 1, 1, 8, 8);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}
}
