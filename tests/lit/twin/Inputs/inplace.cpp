// A custom op in plain C (no intrinsics, so no trace): it counts as reading
// its ins and then writing its outs on its pipe.
#include "memref.h"

extern "C" void _mlir_ciface_double_it(memref_t<float, 1> *in, memref_t<float, 1> *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    out->aligned[out->offset + i] = 2.0f * in->aligned[in->offset + i];
}
