// out[i] = a[i] + n with a scalar operand, on the vector unit: the scalar's C type is
// what the op's type hint makes it (int64_t for `n: tl.int64`).
#include <stdint.h>

template <typename T, size_t Dim> struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Dim];
  int64_t strides[Dim];
};

extern "C" void _mlir_ciface_add_scalar_int32(memref_t<__ubuf__ int32_t, 1> *a, int64_t n,
                                              memref_t<__ubuf__ int32_t, 1> *out) {
  __ubuf__ int32_t *src = a->aligned + a->offset;
  __ubuf__ int32_t *dst = out->aligned + out->offset;
  set_mask_count();
  set_vector_mask(0, out->sizes[0]);
  vadds(dst, src, (int32_t)n, 1, 1, 1, 8, 8);
  set_mask_norm();
}
