// A C implementation that double-buffers on its own: tiles of 64 floats
// move GM -> UB on MTE2, are doubled on V and go back UB -> GM on MTE3,
// alternating between two UB buffers with one event id per buffer.
#include "memref.h"

extern "C" void _mlir_ciface_pingpong(memref_t<float, 1> *in, memref_t<float, 1> *out) {
  const int64_t tile = 64, n = in->sizes[0];
  float *buf[2] = {(float *)(uintptr_t)0, (float *)(uintptr_t)(tile * sizeof(float))};
  float *src = in->aligned + in->offset, *dst = out->aligned + out->offset;
  // Both buffers start free.
  set_flag(PIPE_MTE3, PIPE_MTE2, 0);
  set_flag(PIPE_MTE3, PIPE_MTE2, 1);
  set_mask_count();
  set_vector_mask(0, tile);
  for (int64_t t = 0; t * tile < n; t++) {
    int64_t b = t % 2;
    wait_flag(PIPE_MTE3, PIPE_MTE2, b);
    copy_gm_to_ubuf_align_b32(buf[b], src + t * tile, 0, 1, tile * sizeof(float), 0, 0, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, b);
    wait_flag(PIPE_MTE2, PIPE_V, b);
    vadd(buf[b], buf[b], buf[b], 1, 1, 1, 1, 8, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, b);
    wait_flag(PIPE_V, PIPE_MTE3, b);
    copy_ubuf_to_gm_align_b32(dst + t * tile, buf[b], 0, 1, tile * sizeof(float), 0, 0, 0, 0);
    set_flag(PIPE_MTE3, PIPE_MTE2, b);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE2, 0);
  wait_flag(PIPE_MTE3, PIPE_MTE2, 1);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}
