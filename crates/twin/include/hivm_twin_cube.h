/* The cube unit's intrinsics, emulated for implementations of custom ops on
 * the CUBE core (included by hivm_twin.h):
 *
 *   load_cbuf_to_ca / load_cbuf_to_cb  L1 -> L0A / L0B on PIPE_MTE1, whole
 *                                      512-byte fractals
 *                                      (transposing 2-byte fractals only)
 *   mad                                L0A x L0B (+)-> L0C on PIPE_M
 *   copy_matrix_cc_to_gm               L0C -> GM on PIPE_FIX (NZ to ND)
 *   copy_matrix_cc_to_ub               L0C -> UB on PIPE_FIX (NZ to ND, or
 *                                      NZ to NZ)
 *   copy_matrix_cc_to_cbuf             L0C -> L1 on PIPE_FIX (NZ to NZ, with
 *                                      channel_split for float; NZ to ND)
 *
 * Layouts (as the cube unit's library lays them out): L0A holds A (m x k)
 * as fractals [m1][k1] of 16 rows x k0, row-major inside ("zZ"); L0B holds
 * B (k x n) as fractals [k1][n1] of 16 columns x k0, a column of B
 * contiguous inside ("nZ"); L0C holds C (m x n) as fractals [n1][m1] of
 * 16 x 16, row-major inside. k0 is 32 bytes of the input type (16 for
 * half, 8 for float, 32 for int8_t). Every pointer must lie inside its
 * memory, every access is traced on its pipe, and what is not emulated
 * (bias tables, unit flags, quantisation modes but the plain conversions,
 * transposing loads of 4- or 1-byte fractals) fails the call with a
 * message rather than computing something else. */
#ifndef HIVM_TWIN_CUBE_H
#define HIVM_TWIN_CUBE_H
#ifdef __cplusplus

enum { HIVM_TWIN_L1 = 0, HIVM_TWIN_L0A = 1, HIVM_TWIN_L0B = 2, HIVM_TWIN_L0C = 3 };

namespace hivm_twin_impl {

static inline const char *cube_name(int s) {
  static const char *const names[] = {"L1", "L0A", "L0B", "L0C"};
  return names[s];
}

/* A pointer into cube memory `s` (a host pointer or a byte address in it),
 * `bytes` of it inside. */
static inline uint8_t *cube(int s, const char *what, const volatile void *p, uint64_t bytes) {
  struct hivm_twin_ctx *c = hivm_twin;
  uint64_t v = (uint64_t)(uintptr_t)p, base = (uint64_t)(uintptr_t)c->cube_base[s], size = c->cube_size[s];
  uint64_t off = v >= base ? v - base : v;
  if (v < size || (v >= base && v - base < size)) {
    if (off + bytes > size)
      hivm_twin_fail("%s: %s access [%llu, %llu) is outside %s (%llu bytes)", what, cube_name(s),
                     (unsigned long long)off, (unsigned long long)(off + bytes), cube_name(s),
                     (unsigned long long)size);
    return c->cube_base[s] + off;
  }
  hivm_twin_fail("%s: %p is not an %s address (%s is %llu bytes)", what, (const void *)p, cube_name(s), cube_name(s),
                 (unsigned long long)size);
}

static inline unsigned long long cube_off(int s, const volatile void *p) {
  uint64_t v = (uint64_t)(uintptr_t)p, base = (uint64_t)(uintptr_t)hivm_twin->cube_base[s];
  return (unsigned long long)(v >= base && v - base < hivm_twin->cube_size[s] ? v - base : v);
}

static inline void load_l0(const char *name, int space, void *dst, const void *src, uint16_t base_idx, uint8_t repeat,
                           uint16_t src_stride, uint16_t dst_gap, unsigned elem, bool transpose) {
  hivm_twin_call(PIPE_MTE1, "%s(dst=%s+%llu, src=L1+%llu, base_idx=%u, repeat=%u, src_stride=%u, dst_gap=%u%s)", name,
                 cube_name(space), cube_off(space, dst), cube_off(HIVM_TWIN_L1, src), base_idx, repeat, src_stride,
                 dst_gap, transpose ? ", transpose" : "");
  /* Only the 2-byte transpose (one 16 x 16 fractal) is pinned down by how
   * the cube library uses it: the library transposes float operands with
   * img2col and int8 ones with load_cbuf_to_ca/cb_transpose, never with
   * this flag, so what it does to 16 x 8 or 16 x 32 fractals is unknown. */
  if (transpose && elem != 2)
    hivm_twin_fail("%s: transposing fractals of %u-byte elements is not emulated (2-byte only)", name, elem);
  for (uint32_t r = 0; r < repeat; r++) {
    const uint8_t *s = hivm_twin_impl::cube(HIVM_TWIN_L1, name,
                                            (const uint8_t *)src + ((uint64_t)base_idx + (uint64_t)r * src_stride) * 512,
                                            512);
    uint8_t *d = hivm_twin_impl::cube(space, name, (uint8_t *)dst + (uint64_t)r * (1 + dst_gap) * 512, 512);
    if (transpose) {
      uint16_t t[256];
      memcpy(t, s, 512);
      for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
          memcpy(d + (j * 16 + i) * 2, &t[i * 16 + j], 2);
    } else {
      memmove(d, s, 512);
    }
    hivm_twin_access(PIPE_MTE1, 0, s, 512);
    hivm_twin_access(PIPE_MTE1, 1, d, 512);
  }
}

template <typename T> struct acc_of {
  typedef float type;
};
template <> struct acc_of<int8_t> {
  typedef int32_t type;
};

} // namespace hivm_twin_impl

template <typename T>
static inline void load_cbuf_to_ca(T *dst, const T *src, uint16_t base_idx, uint8_t repeat, uint16_t src_stride,
                                   uint16_t dst_gap, uint8_t sid, bool transpose, int addr_cal_mode = 0) {
  (void)sid;
  (void)addr_cal_mode;
  hivm_twin_impl::load_l0("load_cbuf_to_ca", HIVM_TWIN_L0A, dst, src, base_idx, repeat, src_stride, dst_gap, sizeof(T),
                          transpose);
}

template <typename T>
static inline void load_cbuf_to_cb(T *dst, const T *src, uint16_t base_idx, uint8_t repeat, uint16_t src_stride,
                                   uint16_t dst_gap, uint8_t sid, bool transpose, int addr_cal_mode = 0) {
  (void)sid;
  (void)addr_cal_mode;
  hivm_twin_impl::load_l0("load_cbuf_to_cb", HIVM_TWIN_L0B, dst, src, base_idx, repeat, src_stride, dst_gap, sizeof(T),
                          transpose);
}

/* C (m x n, in L0C) = [C +] A (m x k, L0A) x B (k x n, L0B); sums in float
 * (int32_t for int8_t), each in order of k. */
template <typename C, typename T>
static inline void mad(C *c, const T *a, const T *b, uint16_t m, uint16_t k, uint16_t n, uint8_t unit_flag,
                       bool k_direction_align, bool cmatrix_source, bool cmatrix_init_val) {
  using namespace hivm_twin_impl;
  typedef typename acc_of<T>::type Acc;
  static_assert(sizeof(C) == 4, "mad accumulates into float or int32_t");
  hivm_twin_call(PIPE_M, "mad(c=L0C+%llu, a=L0A+%llu, b=L0B+%llu, m=%u, k=%u, n=%u, init=%d)", cube_off(3, c),
                 cube_off(1, a), cube_off(2, b), m, k, n, (int)cmatrix_init_val);
  if (unit_flag || k_direction_align || cmatrix_source)
    hivm_twin_fail("mad: unit flags, k-direction alignment and the bias table are not emulated");
  const uint64_t k0 = 32 / sizeof(T), m1 = (m + 15) / 16, k1 = (k + k0 - 1) / k0, n1 = (n + 15) / 16;
  const T *ah = (const T *)cube(HIVM_TWIN_L0A, "mad", a, m1 * k1 * 512);
  const T *bh = (const T *)cube(HIVM_TWIN_L0B, "mad", b, k1 * n1 * 512);
  C *ch = (C *)cube(HIVM_TWIN_L0C, "mad", c, n1 * m1 * 256 * sizeof(C));
  hivm_twin_access(PIPE_M, 0, ah, m1 * k1 * 512);
  hivm_twin_access(PIPE_M, 0, bh, k1 * n1 * 512);
  if (!cmatrix_init_val)
    hivm_twin_access(PIPE_M, 0, ch, n1 * m1 * 256 * sizeof(C));
  hivm_twin_access(PIPE_M, 1, ch, n1 * m1 * 256 * sizeof(C));
  for (uint64_t i = 0; i < m; i++)
    for (uint64_t j = 0; j < n; j++) {
      C *out = ch + ((j / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + j % 16;
      Acc s = cmatrix_init_val ? (Acc)0 : (Acc)*out;
      for (uint64_t p = 0; p < k; p++) {
        Acc x = (Acc)ah[((i / 16) * k1 + p / k0) * 16 * k0 + (i % 16) * k0 + p % k0];
        Acc y = (Acc)bh[((p / k0) * n1 + j / 16) * 16 * k0 + (j % 16) * k0 + p % k0];
        s += x * y;
      }
      *out = (C)s;
    }
}

namespace hivm_twin_impl {

/* Where the fix pipe writes: GM, UB or L1. */
enum { FIX_GM = 0, FIX_UB = 1, FIX_L1 = 2 };

static inline uint8_t *fix_dst(int kind, const char *name, const volatile void *p, uint64_t bytes) {
  if (kind == FIX_UB)
    return hivm_twin_ub(name, p, bytes);
  if (kind == FIX_L1)
    return cube(HIVM_TWIN_L1, name, p, bytes);
  return hivm_twin_gm(name, p, bytes);
}

/* L0C (m_size x n_size in fractals [n1][rows][16], `src_stride` rows per
 * column of fractals) out through the fix pipe. With `nz2nd_en`, row i of
 * the result goes to dst + i * dst_d elements (ND). Without it the
 * fractals stay fractals (NZ): column block b of c0 columns goes, its rows
 * of c0 elements one after another, to dst + b * dst_d elements; c0 is 16,
 * or 8 with `channel_split` (float: each 16 x 16 fractal of L0C becomes
 * two 16 x 8 fractals, the float fractal of L1). `pre_quant` 0 converts
 * to D as C++ does (float to half rounds to nearest); `pre_relu` 1 clamps
 * at zero. */
template <typename D, typename S>
static inline void fix_out(const char *name, int kind, D *dst, const S *src, uint16_t n_size, uint16_t m_size,
                           uint32_t dst_d, uint16_t src_stride, uint8_t unit_flag, int pre_quant, uint8_t pre_relu,
                           bool channel_split, bool nz2nd_en) {
  if (unit_flag || pre_quant || pre_relu > 1)
    hivm_twin_fail("%s: unit flags, quantisation and ReLU modes other than plain ReLU are not emulated", name);
  if (m_size > src_stride)
    hivm_twin_fail("%s: m=%u rows in L0C columns of %u rows", name, m_size, src_stride);
  if (channel_split && (nz2nd_en || sizeof(S) != 4 || sizeof(D) != 4 || (S)0.5 == (S)0 || (D)0.5 == (D)0))
    hivm_twin_fail("%s: channel_split is emulated for float to float without nz2nd only", name);
  const uint64_t n1 = (n_size + 15) / 16, c0 = channel_split ? 8 : 16;
  const S *sh = (const S *)cube(HIVM_TWIN_L0C, name, src, n1 * src_stride * 16 * sizeof(S));
  hivm_twin_access(PIPE_FIX, 0, sh, n1 * src_stride * 16 * sizeof(S));
  const uint64_t rows = nz2nd_en ? m_size : (uint64_t)n_size / c0, cols = nz2nd_en ? n_size : m_size * c0;
  if (nz2nd_en ? dst_d < n_size : (n_size % 16 != 0 || dst_d < m_size * c0))
    hivm_twin_fail(nz2nd_en ? "%s: rows of n=%u elements %u apart overlap"
                            : "%s: n=%u is not whole fractals, or fractal columns of m rows %u elements apart overlap",
                   name, n_size, dst_d);
  for (uint64_t r = 0; r < rows; r++) {
    D *out = (D *)fix_dst(kind, name, dst + r * dst_d, cols * sizeof(D));
    for (uint64_t e = 0; e < cols; e++) {
      /* (i, j) of the m x n result this element of the output holds. */
      uint64_t i = nz2nd_en ? r : e / c0, j = nz2nd_en ? e : r * c0 + e % c0;
      S v = sh[(j / 16) * src_stride * 16 + i * 16 + j % 16];
      if (pre_relu && v < (S)0)
        v = (S)0;
      out[e] = (D)v;
    }
    hivm_twin_access(PIPE_FIX, 1, out, cols * sizeof(D));
  }
}

} // namespace hivm_twin_impl

/* L0C -> GM, NZ -> ND (`nz2nd_en`) only: see fix_out. */
template <typename D, typename S>
static inline void copy_matrix_cc_to_gm(D *dst, const S *src, uint8_t sid, uint16_t n_size, uint16_t m_size,
                                        uint32_t dst_d, uint16_t src_stride, uint8_t unit_flag, int pre_quant,
                                        uint8_t pre_relu, bool channel_split, bool nz2nd_en) {
  using namespace hivm_twin_impl;
  (void)sid;
  hivm_twin_call(PIPE_FIX, "copy_matrix_cc_to_gm(dst=%p, src=L0C+%llu, n=%u, m=%u, dst_d=%u, src_stride=%u)",
                 (void *)dst, cube_off(3, src), n_size, m_size, dst_d, src_stride);
  if (!nz2nd_en || unit_flag || pre_quant || pre_relu > 1 || channel_split)
    hivm_twin_fail("copy_matrix_cc_to_gm: only nz2nd with no unit flag, no quantisation and plain ReLU is emulated");
  fix_out("copy_matrix_cc_to_gm", FIX_GM, dst, src, n_size, m_size, dst_d, src_stride, unit_flag, pre_quant, pre_relu,
          channel_split, nz2nd_en);
}

/* L0C -> UB, NZ -> ND or NZ -> NZ: see fix_out. */
template <typename D, typename S>
static inline void copy_matrix_cc_to_ub(D *dst, const S *src, uint8_t sid, uint16_t n_size, uint16_t m_size,
                                        uint32_t dst_d, uint16_t src_stride, uint8_t unit_flag, int pre_quant,
                                        uint8_t pre_relu, bool channel_split, bool nz2nd_en) {
  using namespace hivm_twin_impl;
  (void)sid;
  hivm_twin_call(PIPE_FIX, "copy_matrix_cc_to_ub(dst=UB+%llu, src=L0C+%llu, n=%u, m=%u, dst_d=%u, src_stride=%u%s%s)",
                 hivm_twin_ub_off(dst), cube_off(3, src), n_size, m_size, dst_d, src_stride,
                 nz2nd_en ? ", nz2nd" : "", channel_split ? ", channel_split" : "");
  fix_out("copy_matrix_cc_to_ub", FIX_UB, dst, src, n_size, m_size, dst_d, src_stride, unit_flag, pre_quant, pre_relu,
          channel_split, nz2nd_en);
}

/* L0C -> L1, NZ -> NZ (with `channel_split` for float, the fractals a
 * float operand of `mad` loads from L1) or NZ -> ND: see fix_out. */
template <typename D, typename S>
static inline void copy_matrix_cc_to_cbuf(D *dst, const S *src, uint8_t sid, uint16_t n_size, uint16_t m_size,
                                          uint32_t dst_d, uint16_t src_stride, uint8_t unit_flag, int pre_quant,
                                          uint8_t pre_relu, bool channel_split, bool nz2nd_en) {
  using namespace hivm_twin_impl;
  (void)sid;
  hivm_twin_call(PIPE_FIX,
                 "copy_matrix_cc_to_cbuf(dst=L1+%llu, src=L0C+%llu, n=%u, m=%u, dst_d=%u, src_stride=%u%s%s)",
                 cube_off(HIVM_TWIN_L1, dst), cube_off(3, src), n_size, m_size, dst_d, src_stride,
                 nz2nd_en ? ", nz2nd" : "", channel_split ? ", channel_split" : "");
  fix_out("copy_matrix_cc_to_cbuf", FIX_L1, dst, src, n_size, m_size, dst_d, src_stride, unit_flag, pre_quant,
          pre_relu, channel_split, nz2nd_en);
}

#endif /* __cplusplus */
#endif /* HIVM_TWIN_CUBE_H */
