// A two-slot variant of the CustomOp document's macro_add (examples/triton/macro_add.cpp).
#define __aiv__ [aicore]
#define INTRINSIC_NO_ARGS(NAME) NAME()
#define INTRINSIC(NAME, ...) NAME(__VA_ARGS__)

constexpr int64_t UB_SCRATCH_SRC0_BYTES = 256;
constexpr int64_t UB_SCRATCH_SRC1_BYTES = 384;
constexpr int64_t kGmToUbChunkElems = 16;

template <typename T, size_t Dim>
struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Dim];
  int64_t strides[Dim];
};

// n int32 elements of UB starting at byte `bytes`.
__aiv__ __attribute__((always_inline)) memref_t<__ubuf__ int32_t, 1>
ub_scratch_at_bytes(int64_t bytes, int64_t n) {
  auto p = (__ubuf__ int32_t *)(uintptr_t)bytes;
  return {p, p, 0, {n}, {1}};
}

// GM -> UB in chunks of kGmToUbChunkElems elements, one burst each.
__aiv__ __attribute__((always_inline)) void
load_gm_to_ubuf_1d(memref_t<__gm__ int32_t, 1> *src, memref_t<__ubuf__ int32_t, 1> *dst) {
  const int64_t n = src->sizes[0];
  for (int64_t i = 0; i < n; i += kGmToUbChunkElems) {
    int64_t len = n - i < kGmToUbChunkElems ? n - i : kGmToUbChunkElems;
    INTRINSIC(copy_gm_to_ubuf_align_b32, dst->aligned + dst->offset + i, src->aligned + src->offset + i, 0, 1,
              (uint32_t)(len * sizeof(int32_t)), 0, 0, 0, 0);
  }
}

// dst = a + b over dst's elements, with the mask in counter mode.
__aiv__ __attribute__((always_inline)) void vector_vadd_ub(memref_t<__ubuf__ int32_t, 1> *a,
                                                           memref_t<__ubuf__ int32_t, 1> *b,
                                                           memref_t<__ubuf__ int32_t, 1> *dst) {
  INTRINSIC_NO_ARGS(set_mask_count);
  INTRINSIC(set_vector_mask, 0, dst->sizes[0]);
  INTRINSIC(vadd, dst->aligned + dst->offset, a->aligned + a->offset, b->aligned + b->offset, 1, 1, 1, 1, 8, 8, 8);
  INTRINSIC_NO_ARGS(set_mask_norm);
}

extern "C" {
// A macro with two internal MTE2 -> V slots: each operand is loaded, then
// handed to the vector pipe by its own event.
__aiv__ __attribute__((always_inline)) void _mlir_ciface_two_slot_add_int32(
    memref_t<__gm__ int32_t, 1> *src0, memref_t<__gm__ int32_t, 1> *src1,
    memref_t<__ubuf__ int32_t, 1> *dst) {
  const int64_t n = dst->sizes[0];
  auto ub_src0 = ub_scratch_at_bytes(UB_SCRATCH_SRC0_BYTES, n);
  auto ub_src1 = ub_scratch_at_bytes(UB_SCRATCH_SRC1_BYTES, n);
  memref_t<__gm__ int32_t, 1> gm_src0 = {src0->allocated, src0->aligned, src0->offset, {n}, {1}};
  memref_t<__gm__ int32_t, 1> gm_src1 = {src1->allocated, src1->aligned, src1->offset, {n}, {1}};
  load_gm_to_ubuf_1d(&gm_src0, &ub_src0);
  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, 0);
  load_gm_to_ubuf_1d(&gm_src1, &ub_src1);
  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, 1);
  INTRINSIC(wait_flag, PIPE_MTE2, PIPE_V, 0);
  INTRINSIC(wait_flag, PIPE_MTE2, PIPE_V, 1);
  vector_vadd_ub(&ub_src0, &ub_src1, dst);
}
}
