// A custom op that does nothing: bench/twin.py measures the cost of a call.
#include <cstdint>

template <typename T, int R> struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];
};

extern "C" void _mlir_ciface_noop(memref_t<float, 1> *) {}
