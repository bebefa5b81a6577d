// A macro with two internal MTE2 -> V slots: it brings its GM input into
// its scratch buffer in two halves, each handed to PIPE_V through its own
// event id, and writes input + 1 to its UB output.
#include "memref.h"

extern "C" {
void _mlir_ciface_two_slots(memref_t<float, 1> *in, memref_t<float, 1> *out, memref_t<float, 1> *scratch, int64_t e0,
                            int64_t e1) {
  float *s = scratch->aligned + scratch->offset;
  float *o = out->aligned + out->offset;
  const float *g = in->aligned + in->offset;
  int64_t ids[2] = {e0, e1};
  set_mask_count();
  set_vector_mask(0, 32);
  for (int h = 0; h < 2; ++h) {
    copy_gm_to_ubuf_align_b32(s + 32 * h, g + 32 * h, 0, 1, 32 * sizeof(float), 0, 0, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, ids[h]);
    wait_flag(PIPE_MTE2, PIPE_V, ids[h]);
    vadds(o + 32 * h, s + 32 * h, 1.0f, 1, 1, 1, 8, 8);
  }
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}
}
