// Doubles its input through a scratch buffer the compiler allocates from
// the op's `extra_buffers_*` (passed after the outs, as tmps).
#include "memref.h"

extern "C" void _mlir_ciface_double_via_scratch(memref_t<__ubuf__ float, 1> *in, memref_t<__ubuf__ float, 1> *out,
                                                memref_t<__ubuf__ float, 1> *tmp) {
  const int64_t n = out->sizes[0];
  if (tmp->sizes[0] < n)
    return;
  INTRINSIC_NO_ARGS(set_mask_count);
  INTRINSIC(set_vector_mask, 0, n);
  // tmp = in + in, then a barrier (same pipe, dependent), then out = tmp * 1.
  INTRINSIC(vadd, tmp->aligned + tmp->offset, in->aligned + in->offset, in->aligned + in->offset, 1, 1, 1, 1, 8, 8, 8);
  INTRINSIC(pipe_barrier, PIPE_V);
  INTRINSIC(vmuls, out->aligned + out->offset, tmp->aligned + tmp->offset, 1.0f, 1, 1, 1, 8, 8);
  INTRINSIC_NO_ARGS(set_mask_norm);
}
