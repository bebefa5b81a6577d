// Implementations of the custom ops the linalg-stage kernel suite
// (test_triton_linalg.py) calls, in plain C over MLIR memref descriptors
// (`_mlir_ciface_<symbol>`: ins, then outs, then scratch buffers).
#include <stdint.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} m1f;

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} m2f;

#define AT1(m, i) ((m)->aligned[(m)->offset + (i) * (m)->strides[0]])
#define AT2(m, i, j) ((m)->aligned[(m)->offset + (i) * (m)->strides[0] + (j) * (m)->strides[1]])

// out = a + 2 b
void _mlir_ciface_axpy_f32(m1f *a, m1f *b, m1f *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i) AT1(out, i) = AT1(a, i) + 2.0f * AT1(b, i);
}

// out[i][j] = a[i][j] * (i + 1)
void _mlir_ciface_rowscale_f32(m2f *a, m2f *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i)
    for (int64_t j = 0; j < out->sizes[1]; ++j) AT2(out, i, j) = AT2(a, i, j) * (float)(i + 1);
}

// out = a + b through a scratch buffer the compiler allocates (extra_buffers).
void _mlir_ciface_scratch_add_f32(m1f *a, m1f *b, m1f *out, m1f *scratch) {
  int64_t n = out->sizes[0];
  if (scratch->sizes[0] < n) n = scratch->sizes[0];
  for (int64_t i = 0; i < n; ++i) AT1(scratch, i) = AT1(a, i);
  for (int64_t i = 0; i < n; ++i) AT1(out, i) = AT1(scratch, i) + AT1(b, i);
}

// out[i] = a[i] * a[i]
void _mlir_ciface_square_f32(m1f *a, m1f *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i) AT1(out, i) = AT1(a, i) * AT1(a, i);
}
