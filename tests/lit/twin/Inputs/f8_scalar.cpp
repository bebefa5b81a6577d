// Takes an 8-bit float scalar as its code: C has no 8-bit float type.
#include <stdint.h>
#include "memref.h"

extern "C" void _mlir_ciface_f8_scalar(memref_t<float, 1> *in, uint8_t x, memref_t<float, 1> *out) {
  out->aligned[0] = x;
}
