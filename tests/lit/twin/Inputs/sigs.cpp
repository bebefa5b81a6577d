// Implementations whose C signature does not match the op that calls them.
#include "memref.h"

extern "C" {
void _mlir_ciface_extra_tmp(memref_t<float, 1> *src, memref_t<float, 1> *dst, memref_t<float, 1> *tmp) {}
void _mlir_ciface_float_kernel(memref_t<float, 1> *src, memref_t<float, 1> *dst) {}
void _mlir_ciface_rank_two(memref_t<float, 2> *src, memref_t<float, 1> *dst) {}
void _mlir_ciface_raw_pointer(float *src, memref_t<float, 1> *dst) {}
void _mlir_ciface_too_few(memref_t<float, 1> *src) {}
void _mlir_ciface_signed_ints(memref_t<int32_t, 1> *src, memref_t<int32_t, 1> *dst) {}
void _mlir_ciface_unsigned_ints(memref_t<uint32_t, 1> *src, memref_t<uint32_t, 1> *dst) {}
void _mlir_ciface_narrow_event(memref_t<float, 1> *src, memref_t<float, 1> *dst, int32_t event) {}
void _mlir_ciface_opaque(void *src, void *dst) {}
void _mlir_ciface_half_kernel(memref_t<half, 1> *src, memref_t<half, 1> *dst) {}
}
