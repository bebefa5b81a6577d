// Custom ops on the cube core that drain L0C through the fix pipe into UB
// and into L1 (see cube_fixpipe.rs), and misuses of those intrinsics.
#include <stdint.h>

template <typename T, size_t Dim>
struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Dim];
  int64_t strides[Dim];
};

template <typename T, size_t Dim> static T *at(memref_t<T, Dim> *m) { return m->aligned + m->offset; }

// C (16 x 32, f32) = A (16 x 32) x B (32 x 32) into L0C at 0. A is in L1
// as [K1=2][M1=1] fractals, B as [N1=2][K1=2]; L0B wants B's fractals as
// [k1][n1], each transposed (a column of B contiguous).
static void product(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b) {
  half *l0a = (half *)(uintptr_t)0;
  half *l0b = (half *)(uintptr_t)0;
  float *l0c = (float *)(uintptr_t)0;
  load_cbuf_to_ca(l0a, at(a), 0, 2, 1, 0, 0, false);
  for (int k1 = 0; k1 < 2; k1++)
    load_cbuf_to_cb(l0b + k1 * 2 * 256, at(b), k1, 2, 2, 0, 0, true);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(l0c, l0a, l0b, 16, 32, 32, 0, false, false, true);
  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
}

// C to UB twice: as an ND 16 x 32 matrix, and as its two 16 x 16
// fractals (NZ) with ReLU.
extern "C" void _mlir_ciface_to_ub(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                   memref_t<__ubuf__ float, 2> *nd, memref_t<__ubuf__ float, 3> *nz) {
  product(a, b);
  float *l0c = (float *)(uintptr_t)0;
  copy_matrix_cc_to_ub(at(nd), l0c, 0, 32, 16, (uint32_t)nd->strides[0], 16, 0, 0, 0, false, true);
  copy_matrix_cc_to_ub(at(nz), l0c, 0, 32, 16, (uint32_t)nz->strides[0], 16, 0, 0, 1, false, false);
}

// C to L1 split into float fractals (16 x 8): C^T as L0B would hold it for
// a float product, so D (16 x 16) = A2 (16 x 32, f32) x C^T.
// Without SYNC, MTE1 reads the L1 fractals the fix pipe writes unordered
// with that write.
template <bool SYNC>
static void to_cbuf(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b, memref_t<__cbuf__ float, 4> *a2,
                    memref_t<__cbuf__ float, 4> *c, memref_t<__gm__ float, 2> *d) {
  product(a, b);
  float *l0a = (float *)(uintptr_t)0;
  float *l0b = (float *)(uintptr_t)0;
  float *l0c = (float *)(uintptr_t)0;
  copy_matrix_cc_to_cbuf(at(c), l0c, 0, 32, 16, (uint32_t)c->strides[0], 16, 0, 0, 0, true, false);
  if (SYNC) {
    set_flag(PIPE_FIX, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_FIX, PIPE_MTE1, EVENT_ID0);
  } else {
    // Orders the first loads and `mad` before the next loads, not the copy.
    set_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID0);
  }
  load_cbuf_to_ca(l0a, at(a2), 0, 4, 1, 0, 0, false);
  load_cbuf_to_cb(l0b, at(c), 0, 4, 1, 0, 0, false);
  set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  mad(l0c, l0a, l0b, 16, 32, 16, 0, false, false, true);
  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  copy_matrix_cc_to_gm(at(d), l0c, 0, 16, 16, (uint32_t)d->strides[0], 16, 0, 0, 0, false, true);
}

extern "C" void _mlir_ciface_to_cbuf(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                     memref_t<__cbuf__ float, 4> *a2, memref_t<__cbuf__ float, 4> *c,
                                     memref_t<__gm__ float, 2> *d) {
  to_cbuf<true>(a, b, a2, c, d);
}

extern "C" void _mlir_ciface_to_cbuf_racy(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                          memref_t<__cbuf__ float, 4> *a2, memref_t<__cbuf__ float, 4> *c,
                                          memref_t<__gm__ float, 2> *d) {
  to_cbuf<false>(a, b, a2, c, d);
}

// The NZ copy to UB aimed at the last 512 bytes of UB: its first fractal
// column (1 KiB) runs past the end.
extern "C" void _mlir_ciface_to_ub_far(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                       memref_t<__ubuf__ float, 2> *nd, memref_t<__ubuf__ float, 3> *nz) {
  (void)nd;
  (void)nz;
  product(a, b);
  float *far = (float *)(uintptr_t)(hivm_twin->ub_size - 512);
  copy_matrix_cc_to_ub(far, (float *)(uintptr_t)0, 0, 32, 16, 256, 16, 0, 0, 0, false, false);
}

// channel_split of a float result converted to half: not emulated.
extern "C" void _mlir_ciface_to_cbuf_half(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                          memref_t<__cbuf__ float, 4> *a2, memref_t<__cbuf__ float, 4> *c,
                                          memref_t<__gm__ float, 2> *d) {
  (void)a2;
  (void)d;
  product(a, b);
  copy_matrix_cc_to_cbuf((half *)at(c), (float *)(uintptr_t)0, 0, 32, 16, 128, 16, 0, 0, 0, true, false);
}

// C^T loaded with the transpose flag on float fractals: not emulated.
extern "C" void _mlir_ciface_to_cbuf_transposed(memref_t<__cbuf__ half, 4> *a, memref_t<__cbuf__ half, 4> *b,
                                                memref_t<__cbuf__ float, 4> *a2, memref_t<__cbuf__ float, 4> *c,
                                                memref_t<__gm__ float, 2> *d) {
  (void)a2;
  (void)d;
  product(a, b);
  copy_matrix_cc_to_cbuf(at(c), (float *)(uintptr_t)0, 0, 32, 16, 128, 16, 0, 0, 0, true, false);
  set_flag(PIPE_FIX, PIPE_MTE1, EVENT_ID0);
  wait_flag(PIPE_FIX, PIPE_MTE1, EVENT_ID0);
  load_cbuf_to_cb((float *)(uintptr_t)0, at(c), 0, 4, 1, 0, 0, true);
}
