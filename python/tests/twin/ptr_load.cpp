// Copies sizes[0] of its out's elements from a GM pointer operand, then adds n.
#include <cstdint>

template <typename T, int R> struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];
};

extern "C" void _mlir_ciface_ptr_load_float(memref_t<float, 1> *src, int64_t n, memref_t<float, 1> *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    out->aligned[out->offset + i] = src->aligned[src->offset + i] + (float)n;
}

// Writes through the pointer: dst[i] = 2 * v[i].
extern "C" void _mlir_ciface_ptr_store_float(memref_t<float, 1> *v, memref_t<float, 1> *dst) {
  for (int64_t i = 0; i < v->sizes[0]; i++)
    dst->aligned[dst->offset + i] = 2.0f * v->aligned[v->offset + i];
}
