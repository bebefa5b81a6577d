// A 16 x 32 by 32 x 16 f16 matmul on the cube core with the emulated cube
// intrinsics: A and B come in L1 (fractal, as nd2nz leaves them), the
// result goes to GM as an ND matrix.
#include <stdint.h>
#include "memref.h"

template <bool SYNC>
static void mm(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b, memref_t<__gm__ float, 2> *c) {
  half *l0a = (half *)(uintptr_t)0;
  half *l0b = (half *)(uintptr_t)0;
  float *l0c = (float *)(uintptr_t)0;
  // A in L1 is [K1][M1][16][16]: its two K fractals, one apart, side by
  // side in L0A; B's fractals [N1][K1] transposed into L0B (a column of B
  // contiguous).
  load_cbuf_to_ca(l0a, a->aligned + a->offset, 0, 2, 1, 0, 0, false);
  load_cbuf_to_cb(l0b, b->aligned + b->offset, 0, 2, 1, 0, 0, true);
  if (SYNC) {
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  }
  mad(l0c, l0a, l0b, 16, 32, 16, 0, false, false, true);
  if (SYNC) {
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  }
  copy_matrix_cc_to_gm(c->aligned + c->offset, l0c, 0, 16, 16, (uint32_t)c->strides[0], 16, 0, 0, 0, false, true);
}

extern "C" void _mlir_ciface_cube_mm(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                     memref_t<__gm__ float, 2> *c) {
  mm<true>(a, b, c);
}

extern "C" void _mlir_ciface_cube_mm_racy(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                          memref_t<__gm__ float, 2> *c) {
  mm<false>(a, b, c);
}

// Writes L0A past its end.
extern "C" void _mlir_ciface_cube_mm_far(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                         memref_t<__gm__ float, 2> *c) {
  (void)b;
  (void)c;
  load_cbuf_to_ca((half *)(uintptr_t)(65536 - 256), a->aligned + a->offset, 0, 2, 1, 0, 0, false);
}
