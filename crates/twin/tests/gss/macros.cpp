// Custom macros for the randomized sync-solver tester. Each reads its GM
// input on PIPE_MTE2 into its scratch buffer (tmps), hands over to PIPE_V
// through an internal flag, and writes input + 1 to its UB output there.
// A `wait V -> MTE2` slot orders earlier vector work (reads of the scratch
// by the previous call) before the copy; `mac_b` also sets `V -> MTE3` for
// later stores; `mac_c` pins its internal id.
#include <cstdint>

template <typename T, int Dim> struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Dim];
  int64_t strides[Dim];
};

static void body(memref_t<float, 1> *in, memref_t<float, 1> *out, memref_t<float, 1> *scratch, int64_t wait_id,
                 int64_t internal) {
  float *s = scratch->aligned + scratch->offset;
  float *o = out->aligned + out->offset;
  wait_flag(PIPE_V, PIPE_MTE2, wait_id);
  copy_gm_to_ubuf_align_b32(s, in->aligned + in->offset, 0, 1, 64 * sizeof(float), 0, 0, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, internal);
  wait_flag(PIPE_MTE2, PIPE_V, internal);
  set_mask_count();
  set_vector_mask(0, 64);
  vadds(o, s, 1.0f, 1, 1, 1, 8, 8);
  set_mask_norm();
  set_vector_mask((uint64_t)-1, (uint64_t)-1);
}

extern "C" {
// Slots: [wait V -> MTE2, internal MTE2 -> V].
void _mlir_ciface_mac_a(memref_t<float, 1> *in, memref_t<float, 1> *out, memref_t<float, 1> *scratch, int64_t w,
                        int64_t i) {
  body(in, out, scratch, w, i);
}

// Slots: [wait V -> MTE2, internal MTE2 -> V, set V -> MTE3].
void _mlir_ciface_mac_b(memref_t<float, 1> *in, memref_t<float, 1> *out, memref_t<float, 1> *scratch, int64_t w,
                        int64_t i, int64_t s) {
  body(in, out, scratch, w, i);
  set_flag(PIPE_V, PIPE_MTE3, s);
}

// Slots: [internal MTE2 -> V pinned to EVENT_ID3, wait V -> MTE2].
void _mlir_ciface_mac_c(memref_t<float, 1> *in, memref_t<float, 1> *out, memref_t<float, 1> *scratch, int64_t i,
                        int64_t w) {
  body(in, out, scratch, w, i);
}
}
