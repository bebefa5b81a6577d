/* hivm_twin.h: the CPU twin's stand-in for the Ascend CCE device headers.
 *
 * hivm-run force-includes this header when it compiles a custom op's
 * implementation for the host, so that device sources build unchanged: the
 * address-space qualifiers and `[aicore]` mean nothing here, `half` is the
 * host's _Float16, and the CCE intrinsics are functions that compute on host
 * memory. Unified Buffer (UB) addresses may be real pointers into the
 * emulated UB or small integers (`(__ubuf__ T *)(uintptr_t)bytes`); both
 * name the same emulated memory. Every intrinsic records what it touched
 * and on which pipe in a trace that hivm-run's sync checker reads.
 *
 * Functional emulation only: no timing, pipes run in program order.
 */
#ifndef HIVM_TWIN_H
#define HIVM_TWIN_H

#ifdef __cplusplus
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#else
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#endif

#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __aicore__
#define __global__
#ifdef __cplusplus
/* Device code writes `#define __aiv__ [aicore]`; `[aicore]` becomes the
 * harmless attribute `[[maybe_unused]]`. */
#define aicore [maybe_unused]
#define __aiv__ [aicore]
#define __aic__ [aicore]
#else
#define __aiv__
#define __aic__
#endif
/* The same definitions device sources give themselves (identical
 * redefinitions are allowed). */
#define INTRINSIC_NO_ARGS(NAME) NAME()
#define INTRINSIC(NAME, ...) NAME(__VA_ARGS__)

typedef _Float16 half;

typedef enum { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = 10 } pipe_t;
typedef enum { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 } event_t;

/* What hivm-run and the implementation share (in memory both processes see). */
enum hivm_twin_kind {
  HIVM_TWIN_CALL = 1,  /* text: the intrinsic and its arguments */
  HIVM_TWIN_READ = 2,  /* a: host address, b: bytes */
  HIVM_TWIN_WRITE = 3, /* a: host address, b: bytes */
  HIVM_TWIN_SET = 4,   /* pipe: set pipe, a: wait pipe, c: event */
  HIVM_TWIN_WAIT = 5,  /* pipe: set pipe, a: wait pipe, c: event */
  HIVM_TWIN_BARRIER = 6
};

struct hivm_twin_rec {
  uint32_t kind;
  uint32_t pipe;
  uint64_t a;
  uint64_t b;
  int64_t c;
  char text[160];
};

struct hivm_twin_region {
  uint64_t start;
  uint64_t len;
};

struct hivm_twin_ctx {
  uint8_t *ub_base;
  uint64_t ub_size;
  int64_t block_idx;
  int64_t block_num;
  /* Vector mask: normal mode (128 bits, one per element of a repeat) or
   * counter mode (mask_lo = number of elements). */
  uint64_t mask_hi;
  uint64_t mask_lo;
  int32_t mask_counter;
  int32_t failed;
  struct hivm_twin_rec *trace;
  uint64_t trace_len;
  uint64_t trace_cap;
  /* The buffers device code may touch outside UB (GM, scratch). */
  const struct hivm_twin_region *regions;
  uint64_t n_regions;
  char error[512];
  /* Filled by hivm-run's side of the child, never by device code: whether
   * the entry point returned, and how a fatal signal came about. */
  int32_t returned;
  int32_t fault; /* 1: a memory fault, 2: the stack overflowed */
  uint64_t fault_addr;
  /* The GM and cube-memory pages a call may write (read-only in the worker
   * otherwise). */
  struct hivm_twin_region open[64];
  uint64_t n_open;
  /* The cube unit's memories: L1, L0A, L0B, L0C (host base, bytes). */
  uint8_t *cube_base[4];
  uint64_t cube_size[4];
};

#ifdef __cplusplus
extern "C" {
#endif
extern struct hivm_twin_ctx *hivm_twin;
/* Reports a misuse (out-of-bounds access, bad argument) and ends the call. */
void hivm_twin_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#ifdef __cplusplus
}
#endif

static inline struct hivm_twin_rec *hivm_twin_push(uint32_t kind, uint32_t pipe) {
  struct hivm_twin_ctx *c = hivm_twin;
  if (c->trace_len >= c->trace_cap)
    hivm_twin_fail("the sync trace is full (%llu records)", (unsigned long long)c->trace_cap);
  struct hivm_twin_rec *r = &c->trace[c->trace_len++];
  r->kind = kind;
  r->pipe = pipe;
  r->a = r->b = 0;
  r->c = 0;
  r->text[0] = 0;
  return r;
}

/* One memory access. An instruction's accesses that continue an earlier
 * one of the same kind merge with it (a strided or multi-operand sweep
 * keeps a record per operand, not per block). */
static inline void hivm_twin_access(uint32_t pipe, int write, const void *p, uint64_t bytes) {
  struct hivm_twin_ctx *c = hivm_twin;
  uint32_t kind = write ? HIVM_TWIN_WRITE : HIVM_TWIN_READ;
  uint64_t a = (uint64_t)(uintptr_t)p;
  if (bytes == 0)
    return;
  for (uint64_t back = 1; back <= 4 && back <= c->trace_len; back++) {
    struct hivm_twin_rec *r = &c->trace[c->trace_len - back];
    if (r->kind != HIVM_TWIN_READ && r->kind != HIVM_TWIN_WRITE)
      break;
    if (r->kind == kind && r->pipe == pipe && r->a + r->b == a) {
      r->b += bytes;
      return;
    }
  }
  struct hivm_twin_rec *r = hivm_twin_push(kind, pipe);
  r->a = a;
  r->b = bytes;
}

/* A UB operand: a pointer into the emulated UB, or a UB byte address. */
static inline uint8_t *hivm_twin_ub(const char *what, const volatile void *p, uint64_t bytes) {
  struct hivm_twin_ctx *c = hivm_twin;
  uint64_t v = (uint64_t)(uintptr_t)p;
  uint64_t base = (uint64_t)(uintptr_t)c->ub_base;
  uint64_t off = v >= base ? v - base : v;
  if (v < c->ub_size || (v >= base && v - base < c->ub_size)) {
    if (off + bytes > c->ub_size)
      hivm_twin_fail("%s: UB access [%llu, %llu) is outside UB (%llu bytes)", what, (unsigned long long)off,
                     (unsigned long long)(off + bytes), (unsigned long long)c->ub_size);
    return c->ub_base + off;
  }
  hivm_twin_fail("%s: %p is not a UB address (UB is %llu bytes)", what, (const void *)p,
                 (unsigned long long)c->ub_size);
}

/* A GM operand: must lie inside one of the buffers the kernel passed. */
static inline uint8_t *hivm_twin_gm(const char *what, const volatile void *p, uint64_t bytes) {
  struct hivm_twin_ctx *c = hivm_twin;
  uint64_t v = (uint64_t)(uintptr_t)p;
  for (uint64_t i = 0; i < c->n_regions; i++) {
    const struct hivm_twin_region *r = &c->regions[i];
    if (v >= r->start && v < r->start + r->len) {
      if (v + bytes > r->start + r->len)
        hivm_twin_fail("%s: GM access of %llu bytes at %p runs %llu bytes past the end of its buffer", what,
                       (unsigned long long)bytes, (const void *)p,
                       (unsigned long long)(v + bytes - r->start - r->len));
      return (uint8_t *)(uintptr_t)v;
    }
  }
  hivm_twin_fail("%s: %p is not inside any buffer passed to the kernel", what, (const void *)p);
}

/* A UB operand's byte address (for traces), whichever form it came in. */
static inline unsigned long long hivm_twin_ub_off(const volatile void *p) {
  uint64_t v = (uint64_t)(uintptr_t)p, base = (uint64_t)(uintptr_t)hivm_twin->ub_base;
  return (unsigned long long)(v >= base && v - base < hivm_twin->ub_size ? v - base : v);
}

static inline const char *hivm_twin_pipe_name(int p) {
  static const char *const names[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",  "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                      "PIPE_ALL",  "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX"};
  return p >= 0 && p <= 10 ? names[p] : "PIPE_?";
}

static inline void hivm_twin_call(uint32_t pipe, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static inline void hivm_twin_call(uint32_t pipe, const char *fmt, ...) {
  struct hivm_twin_rec *r = hivm_twin_push(HIVM_TWIN_CALL, pipe);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->text, sizeof r->text, fmt, ap);
  va_end(ap);
}

/* ---- synchronisation ---- */

/* A flag record: `kind` is HIVM_TWIN_SET or HIVM_TWIN_WAIT. */
static inline void hivm_twin_flag(uint32_t kind, const char *name, int set_pipe, int wait_pipe, int64_t event) {
  /* The hardware has eight event ids per pipe pair; -1 is what lowering
   * passes for a sync argument no solver filled in. */
  if (event < 0 || event > 7)
    hivm_twin_fail("%s(%s, %s, %lld): event id %lld is not one of EVENT_ID0..EVENT_ID7", name,
                   hivm_twin_pipe_name(set_pipe), hivm_twin_pipe_name(wait_pipe), (long long)event, (long long)event);
  struct hivm_twin_rec *r = hivm_twin_push(kind, (uint32_t)set_pipe);
  r->a = (uint64_t)wait_pipe;
  r->c = event;
  snprintf(r->text, sizeof r->text, "%s(%s, %s, %lld)", name, hivm_twin_pipe_name(set_pipe),
           hivm_twin_pipe_name(wait_pipe), (long long)event);
}

static inline void set_flag(int set_pipe, int wait_pipe, int64_t event) {
  hivm_twin_flag(HIVM_TWIN_SET, "set_flag", set_pipe, wait_pipe, event);
}

static inline void wait_flag(int set_pipe, int wait_pipe, int64_t event) {
  hivm_twin_flag(HIVM_TWIN_WAIT, "wait_flag", set_pipe, wait_pipe, event);
}

static inline void pipe_barrier(int pipe) {
  struct hivm_twin_rec *r = hivm_twin_push(HIVM_TWIN_BARRIER, (uint32_t)pipe);
  snprintf(r->text, sizeof r->text, "pipe_barrier(%s)", hivm_twin_pipe_name(pipe));
}

static inline int64_t get_block_idx(void) { return hivm_twin->block_idx; }
static inline int64_t get_block_num(void) { return hivm_twin->block_num; }

/* ---- vector mask ---- */

static inline void set_vector_mask(uint64_t hi, uint64_t lo) {
  hivm_twin->mask_hi = hi;
  hivm_twin->mask_lo = lo;
}
static inline void set_mask_count(void) { hivm_twin->mask_counter = 1; }
static inline void set_mask_norm(void) { hivm_twin->mask_counter = 0; }

/* ---- data movement ---- */

#define HIVM_TWIN_ALIGN32(x) (((x) + 31u) / 32u * 32u)

/* GM -> UB on MTE2: `n_burst` bursts of `len_burst` bytes, `src_gap` bytes
 * apart in GM; in UB each burst is padded left/right with zero elements up
 * to 32-byte alignment and followed by `dst_gap` 32-byte blocks. */
static inline void hivm_twin_gm_to_ub(const char *name, unsigned elem, void *dst, const void *src, uint16_t n_burst,
                                      uint32_t len_burst, uint8_t left_pad, uint8_t right_pad, uint32_t src_gap,
                                      uint32_t dst_gap) {
  uint64_t ub_burst = HIVM_TWIN_ALIGN32((uint64_t)left_pad * elem + len_burst + (uint64_t)right_pad * elem);
  hivm_twin_call(PIPE_MTE2, "%s(dst=UB+%llu, src=%p, n_burst=%u, len_burst=%u, pad=%u/%u, gaps=%u/%u)", name,
                 hivm_twin_ub_off(dst), src, n_burst, len_burst, left_pad, right_pad, src_gap, dst_gap);
  for (uint32_t i = 0; i < n_burst; i++) {
    const uint8_t *s = (const uint8_t *)src + (uint64_t)i * (len_burst + src_gap);
    uint8_t *d = (uint8_t *)dst + (uint64_t)i * (ub_burst + (uint64_t)dst_gap * 32);
    const uint8_t *sh = hivm_twin_gm(name, s, len_burst);
    uint8_t *dh = hivm_twin_ub(name, d, ub_burst);
    memset(dh, 0, (uint64_t)left_pad * elem);
    memmove(dh + (uint64_t)left_pad * elem, sh, len_burst);
    memset(dh + (uint64_t)left_pad * elem + len_burst, 0, ub_burst - (uint64_t)left_pad * elem - len_burst);
    hivm_twin_access(PIPE_MTE2, 0, sh, len_burst);
    hivm_twin_access(PIPE_MTE2, 1, dh, ub_burst);
  }
}

/* UB -> GM on MTE3: bursts `src_gap` 32-byte blocks apart (after alignment)
 * in UB and `dst_gap` bytes apart in GM. */
static inline void hivm_twin_ub_to_gm(const char *name, void *dst, const void *src, uint16_t n_burst,
                                      uint32_t len_burst, uint32_t src_gap, uint32_t dst_gap) {
  hivm_twin_call(PIPE_MTE3, "%s(dst=%p, src=UB+%llu, n_burst=%u, len_burst=%u, gaps=%u/%u)", name, dst,
                 hivm_twin_ub_off(src), n_burst, len_burst, src_gap, dst_gap);
  for (uint32_t i = 0; i < n_burst; i++) {
    const uint8_t *s = (const uint8_t *)src + (uint64_t)i * (HIVM_TWIN_ALIGN32(len_burst) + (uint64_t)src_gap * 32);
    uint8_t *d = (uint8_t *)dst + (uint64_t)i * (len_burst + dst_gap);
    const uint8_t *sh = hivm_twin_ub(name, s, len_burst);
    uint8_t *dh = hivm_twin_gm(name, d, len_burst);
    memmove(dh, sh, len_burst);
    hivm_twin_access(PIPE_MTE3, 0, sh, len_burst);
    hivm_twin_access(PIPE_MTE3, 1, dh, len_burst);
  }
}

#define HIVM_TWIN_GM_TO_UB(BITS)                                                                               \
  static inline void copy_gm_to_ubuf_align_b##BITS(void *dst, const void *src, uint8_t sid, uint16_t n_burst,    \
                                                   uint32_t len_burst, uint8_t left_pad, uint8_t right_pad,     \
                                                   uint32_t src_gap, uint32_t dst_gap) {                        \
    (void)sid;                                                                                                  \
    hivm_twin_gm_to_ub("copy_gm_to_ubuf_align_b" #BITS, BITS / 8, dst, src, n_burst, len_burst, left_pad,       \
                       right_pad, src_gap, dst_gap);                                                            \
  }                                                                                                             \
  static inline void copy_ubuf_to_gm_align_b##BITS(void *dst, const void *src, uint8_t sid, uint16_t n_burst,    \
                                                   uint32_t len_burst, uint8_t left_pad, uint8_t right_pad,     \
                                                   uint32_t src_gap, uint32_t dst_gap) {                        \
    (void)sid;                                                                                                  \
    (void)left_pad;                                                                                             \
    (void)right_pad;                                                                                            \
    hivm_twin_ub_to_gm("copy_ubuf_to_gm_align_b" #BITS, dst, src, n_burst, len_burst, src_gap, dst_gap);        \
  }
HIVM_TWIN_GM_TO_UB(8)
HIVM_TWIN_GM_TO_UB(16)
HIVM_TWIN_GM_TO_UB(32)

/* UB -> UB on V: bursts of `len_burst` 32-byte blocks with gaps in blocks. */
static inline void copy_ubuf_to_ubuf(void *dst, const void *src, uint8_t sid, uint16_t n_burst, uint16_t len_burst,
                                     uint16_t src_gap, uint16_t dst_gap) {
  (void)sid;
  hivm_twin_call(PIPE_V, "copy_ubuf_to_ubuf(dst=UB+%llu, src=UB+%llu, n_burst=%u, len_burst=%u, gaps=%u/%u)",
                 hivm_twin_ub_off(dst), hivm_twin_ub_off(src), n_burst, len_burst, src_gap, dst_gap);
  uint64_t bytes = (uint64_t)len_burst * 32;
  for (uint32_t i = 0; i < n_burst; i++) {
    const uint8_t *sh = hivm_twin_ub("copy_ubuf_to_ubuf", (const uint8_t *)src + i * (bytes + src_gap * 32u), bytes);
    uint8_t *dh = hivm_twin_ub("copy_ubuf_to_ubuf", (uint8_t *)dst + i * (bytes + dst_gap * 32u), bytes);
    memmove(dh, sh, bytes);
    hivm_twin_access(PIPE_V, 0, sh, bytes);
    hivm_twin_access(PIPE_V, 1, dh, bytes);
  }
}

#ifdef __cplusplus
/* ---- vector instructions ----
 * One repeat covers 8 blocks of 32 bytes. Element k of repeat r lives in
 * block k / (32 / sizeof(T)) at
 *   base + (r * repeat_stride + block * block_stride) * 32 bytes.
 * In normal mask mode bit k of the 128-bit mask enables element k of every
 * repeat; in counter mode the mask's low word is the number of elements
 * and `repeat` is ignored. */
namespace hivm_twin_impl {

template <typename T> struct is_float : std::integral_constant<bool, std::is_floating_point<T>::value> {};
template <> struct is_float<half> : std::true_type {};

template <typename T> static inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral<T>::value)
    return (T)((typename std::make_unsigned<T>::type)a + (typename std::make_unsigned<T>::type)b);
  else
    return (T)((float)a + (float)b);
}
template <typename T> static inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral<T>::value)
    return (T)((typename std::make_unsigned<T>::type)a - (typename std::make_unsigned<T>::type)b);
  else
    return (T)((float)a - (float)b);
}
template <typename T> static inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral<T>::value)
    return (T)((typename std::make_unsigned<T>::type)a * (typename std::make_unsigned<T>::type)b);
  else
    return (T)((float)a * (float)b);
}
template <typename T> static inline T bits_op(T a, T b, bool is_and) {
  typedef typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type U;
  U x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  U z = is_and ? (U)(x & y) : (U)(x | y);
  T r;
  memcpy(&r, &z, sizeof r);
  return r;
}


/* The enabled elements of block `b` of repeat `r`, as a bit set. A block
 * never straddles the two mask words (its element count divides 64). */
template <typename T> static inline uint32_t block_mask(uint64_t r, unsigned b) {
  constexpr unsigned per_blk = 32 / sizeof(T);
  constexpr unsigned per_rep = 256 / sizeof(T);
  constexpr uint32_t full = (uint32_t)((1ull << per_blk) - 1);
  const hivm_twin_ctx *c = hivm_twin;
  if (c->mask_counter) {
    uint64_t first = r * per_rep + (uint64_t)b * per_blk;
    if (first + per_blk <= c->mask_lo)
      return full;
    if (first >= c->mask_lo)
      return 0;
    return (uint32_t)((1ull << (c->mask_lo - first)) - 1);
  }
  unsigned k0 = b * per_blk;
  uint64_t word = k0 < 64 ? c->mask_lo : c->mask_hi;
  return (uint32_t)(word >> (k0 % 64)) & full;
}

template <typename T> static inline uint64_t repeats(uint8_t repeat) {
  constexpr uint64_t per_rep = 256 / sizeof(T);
  const hivm_twin_ctx *c = hivm_twin;
  return c->mask_counter ? (c->mask_lo + per_rep - 1) / per_rep : repeat;
}

/* Applies `f(dst_elem*, src0_elem*, src1_elem*)` to every enabled element.
 * `nsrc` is 0, 1 or 2. */
template <typename T, int NSRC, typename F>
static inline void run(const char *name, T *dst, const T *s0, const T *s1, uint8_t repeat, uint8_t dbs, uint8_t s0bs,
                       uint8_t s1bs, uint8_t drs, uint8_t s0rs, uint8_t s1rs, F f) {
  constexpr unsigned per_blk = 32 / sizeof(T);
  constexpr uint32_t full = (per_blk >= 32) ? 0xffffffffu : ((1u << per_blk) - 1);
  const uint64_t reps = repeats<T>(repeat);
  /* The trace names only the sources the intrinsic has. */
  const char *counter = hivm_twin->mask_counter ? " [counter mask]" : "";
  if (NSRC >= 2)
    hivm_twin_call(PIPE_V, "%s(dst=UB+%llu, src0=UB+%llu, src1=UB+%llu, repeat=%u, strides %u/%u/%u %u/%u/%u)%s", name,
                   hivm_twin_ub_off(dst), hivm_twin_ub_off(s0), hivm_twin_ub_off(s1), repeat, dbs, s0bs, s1bs, drs, s0rs,
                   s1rs, counter);
  else if (NSRC == 1)
    hivm_twin_call(PIPE_V, "%s(dst=UB+%llu, src0=UB+%llu, repeat=%u, strides %u/%u %u/%u)%s", name,
                   hivm_twin_ub_off(dst), hivm_twin_ub_off(s0), repeat, dbs, s0bs, drs, s0rs, counter);
  else
    hivm_twin_call(PIPE_V, "%s(dst=UB+%llu, repeat=%u, strides %u %u)%s", name, hivm_twin_ub_off(dst), repeat, dbs, drs,
                   counter);
  if (reps == 0)
    return;
  /* Bounds of everything touched, checked once. */
  uint64_t dext = ((reps - 1) * drs + 7u * dbs) * 32 + 32;
  T *d = (T *)hivm_twin_ub(name, dst, dext);
  const T *a = NSRC >= 1 ? (const T *)hivm_twin_ub(name, s0, ((reps - 1) * s0rs + 7u * s0bs) * 32 + 32) : nullptr;
  const T *b = NSRC >= 2 ? (const T *)hivm_twin_ub(name, s1, ((reps - 1) * s1rs + 7u * s1bs) * 32 + 32) : nullptr;
  for (uint64_t r = 0; r < reps; r++) {
    for (unsigned blk = 0; blk < 8; blk++) {
      uint32_t m = block_mask<T>(r, blk);
      if (!m)
        continue;
      T *dp = d + (r * drs + (uint64_t)blk * dbs) * per_blk;
      const T *ap = NSRC >= 1 ? a + (r * s0rs + (uint64_t)blk * s0bs) * per_blk : nullptr;
      const T *bp = NSRC >= 2 ? b + (r * s1rs + (uint64_t)blk * s1bs) * per_blk : nullptr;
      if (m == full) {
        for (unsigned e = 0; e < per_blk; e++)
          f(dp + e, ap ? ap + e : nullptr, bp ? bp + e : nullptr);
      } else {
        for (unsigned e = 0; e < per_blk; e++)
          if ((m >> e) & 1)
            f(dp + e, ap ? ap + e : nullptr, bp ? bp + e : nullptr);
      }
      unsigned lo = (unsigned)__builtin_ctz(m), hi = 32u - (unsigned)__builtin_clz(m);
      if (NSRC >= 1)
        hivm_twin_access(PIPE_V, 0, ap + lo, (hi - lo) * sizeof(T));
      if (NSRC >= 2)
        hivm_twin_access(PIPE_V, 0, bp + lo, (hi - lo) * sizeof(T));
      hivm_twin_access(PIPE_V, 1, dp + lo, (hi - lo) * sizeof(T));
    }
  }
}

} // namespace hivm_twin_impl

#define HIVM_TWIN_VV(NAME, EXPR, COND)                                                                           \
  template <typename T, typename std::enable_if<(COND), int>::type = 0>                                          \
  static inline void NAME(T *dst, T *src0, T *src1, uint8_t repeat, uint8_t dst_block_stride,                    \
                          uint8_t src0_block_stride, uint8_t src1_block_stride, uint8_t dst_repeat_stride,      \
                          uint8_t src0_repeat_stride, uint8_t src1_repeat_stride) {                              \
    using namespace hivm_twin_impl;                                                                             \
    run<T, 2>(#NAME, dst, src0, src1, repeat, dst_block_stride, src0_block_stride, src1_block_stride,            \
              dst_repeat_stride, src0_repeat_stride, src1_repeat_stride,                                         \
              [](T *d, const T *x, const T *y) { T a = *x, b = *y; *d = (EXPR); });                              \
  }

#define HIVM_TWIN_VS(NAME, EXPR, COND)                                                                           \
  template <typename T, typename S, typename std::enable_if<(COND), int>::type = 0>                              \
  static inline void NAME(T *dst, T *src, S scalar, uint8_t repeat, uint8_t dst_block_stride,                   \
                          uint8_t src_block_stride, uint8_t dst_repeat_stride, uint8_t src_repeat_stride) {      \
    using namespace hivm_twin_impl;                                                                             \
    T b = (T)scalar;                                                                                            \
    run<T, 1>(#NAME, dst, src, (const T *)nullptr, repeat, dst_block_stride, src_block_stride, 0,                \
              dst_repeat_stride, src_repeat_stride, 0, [b](T *d, const T *x, const T *) { T a = *x; *d = (EXPR); }); \
  }

#define HIVM_TWIN_V(NAME, EXPR, COND)                                                                            \
  template <typename T, typename std::enable_if<(COND), int>::type = 0>                                          \
  static inline void NAME(T *dst, T *src, uint8_t repeat, uint8_t dst_block_stride, uint8_t src_block_stride,    \
                          uint8_t dst_repeat_stride, uint8_t src_repeat_stride) {                                \
    using namespace hivm_twin_impl;                                                                             \
    run<T, 1>(#NAME, dst, src, (const T *)nullptr, repeat, dst_block_stride, src_block_stride, 0,                \
              dst_repeat_stride, src_repeat_stride, 0, [](T *d, const T *x, const T *) { T a = *x; *d = (EXPR); });  \
  }

#define HIVM_TWIN_ANY (sizeof(T) == 2 || sizeof(T) == 4)
#define HIVM_TWIN_FLOAT (hivm_twin_impl::is_float<T>::value)

HIVM_TWIN_VV(vadd, wrap_add(a, b), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vsub, wrap_sub(a, b), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vmul, wrap_mul(a, b), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vdiv, (T)((float)a / (float)b), HIVM_TWIN_FLOAT)
HIVM_TWIN_VV(vmax, (a > b ? a : b), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vmin, (a < b ? a : b), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vand, bits_op(a, b, true), HIVM_TWIN_ANY)
HIVM_TWIN_VV(vor, bits_op(a, b, false), HIVM_TWIN_ANY)
HIVM_TWIN_VS(vadds, wrap_add(a, b), HIVM_TWIN_ANY)
HIVM_TWIN_VS(vmuls, wrap_mul(a, b), HIVM_TWIN_ANY)
HIVM_TWIN_VS(vmaxs, (a > b ? a : b), HIVM_TWIN_ANY)
HIVM_TWIN_VS(vmins, (a < b ? a : b), HIVM_TWIN_ANY)
HIVM_TWIN_V(vexp, (T)std::exp((float)a), HIVM_TWIN_FLOAT)
HIVM_TWIN_V(vln, (T)std::log((float)a), HIVM_TWIN_FLOAT)
HIVM_TWIN_V(vsqrt, (T)std::sqrt((float)a), HIVM_TWIN_FLOAT)
HIVM_TWIN_V(vrec, (T)(1.0f / (float)a), HIVM_TWIN_FLOAT)
HIVM_TWIN_V(vabs, (a < (T)0 ? wrap_sub((T)0, a) : a), HIVM_TWIN_ANY)
HIVM_TWIN_V(vrelu, (a > (T)0 ? a : (T)0), HIVM_TWIN_ANY)
#endif /* __cplusplus */

#include "hivm_twin_cube.h"

/* ---- Ascend intrinsics the twin does not emulate ----
 * Declared so that a call fails with a message naming the intrinsic, rather
 * than the compiler's "'vcadd' was not declared in this scope". hivm-run
 * reads this list (the HIVM_TWIN_UNEMULATED lines) for its own messages. */
#ifdef __cplusplus
#define HIVM_TWIN_UNEMULATED(NAME)                                                                              \
  template <typename... A>                                                                                      \
  void NAME(A...) __attribute__((error("the CPU twin does not emulate the Ascend intrinsic '" #NAME "'")));
#else
#define HIVM_TWIN_UNEMULATED(NAME)                                                                              \
  void NAME() __attribute__((error("the CPU twin does not emulate the Ascend intrinsic '" #NAME "'")));
#endif
HIVM_TWIN_UNEMULATED(vcadd)
HIVM_TWIN_UNEMULATED(vcmax)
HIVM_TWIN_UNEMULATED(vcmin)
HIVM_TWIN_UNEMULATED(vcgadd)
HIVM_TWIN_UNEMULATED(vcgmax)
HIVM_TWIN_UNEMULATED(vcgmin)
HIVM_TWIN_UNEMULATED(vcpadd)
HIVM_TWIN_UNEMULATED(vreducev2)
HIVM_TWIN_UNEMULATED(vcopy)
HIVM_TWIN_UNEMULATED(vector_dup)
HIVM_TWIN_UNEMULATED(vbrcb)
HIVM_TWIN_UNEMULATED(vsel)
HIVM_TWIN_UNEMULATED(vnot)
HIVM_TWIN_UNEMULATED(vshl)
HIVM_TWIN_UNEMULATED(vshr)
HIVM_TWIN_UNEMULATED(vrsqrt)
HIVM_TWIN_UNEMULATED(vcmpv_eq)
HIVM_TWIN_UNEMULATED(vcmpv_ne)
HIVM_TWIN_UNEMULATED(vcmpv_lt)
HIVM_TWIN_UNEMULATED(vcmpv_le)
HIVM_TWIN_UNEMULATED(vcmpv_gt)
HIVM_TWIN_UNEMULATED(vcmpv_ge)
HIVM_TWIN_UNEMULATED(vcmpvs_eq)
HIVM_TWIN_UNEMULATED(vcmpvs_ne)
HIVM_TWIN_UNEMULATED(vcmpvs_lt)
HIVM_TWIN_UNEMULATED(vcmpvs_le)
HIVM_TWIN_UNEMULATED(vcmpvs_gt)
HIVM_TWIN_UNEMULATED(vcmpvs_ge)
HIVM_TWIN_UNEMULATED(vconv_f162f32)
HIVM_TWIN_UNEMULATED(vconv_bf162f32)
HIVM_TWIN_UNEMULATED(vconv_s162f32)
HIVM_TWIN_UNEMULATED(vconv_u82f16)
HIVM_TWIN_UNEMULATED(vconv_s82f16)
HIVM_TWIN_UNEMULATED(vconv_s322s16)
HIVM_TWIN_UNEMULATED(vconv_s322s64)
HIVM_TWIN_UNEMULATED(vconv_s642s32)
HIVM_TWIN_UNEMULATED(vgather)
HIVM_TWIN_UNEMULATED(vbitsort)
HIVM_TWIN_UNEMULATED(vmrgsort4)
HIVM_TWIN_UNEMULATED(scatter_vnchwconv_b8)
HIVM_TWIN_UNEMULATED(scatter_vnchwconv_b16)
HIVM_TWIN_UNEMULATED(scatter_vnchwconv_b32)
HIVM_TWIN_UNEMULATED(set_cmpmask)
HIVM_TWIN_UNEMULATED(set_va_reg_sb)
HIVM_TWIN_UNEMULATED(set_mov_pad_val)
HIVM_TWIN_UNEMULATED(set_ctrl)
HIVM_TWIN_UNEMULATED(set_fpc)
HIVM_TWIN_UNEMULATED(set_quant_pre)
HIVM_TWIN_UNEMULATED(set_nd_para)
HIVM_TWIN_UNEMULATED(set_mte2_nz_para)
HIVM_TWIN_UNEMULATED(set_fmatrix)
HIVM_TWIN_UNEMULATED(set_fmatrix_b)
HIVM_TWIN_UNEMULATED(set_atomic_add)
HIVM_TWIN_UNEMULATED(set_atomic_none)
HIVM_TWIN_UNEMULATED(set_atomic_max)
HIVM_TWIN_UNEMULATED(set_atomic_min)
HIVM_TWIN_UNEMULATED(set_atomic_f16)
HIVM_TWIN_UNEMULATED(set_atomic_f32)
HIVM_TWIN_UNEMULATED(set_atomic_bf16)
HIVM_TWIN_UNEMULATED(set_atomic_s8)
HIVM_TWIN_UNEMULATED(set_atomic_s16)
HIVM_TWIN_UNEMULATED(set_atomic_s32)
HIVM_TWIN_UNEMULATED(dcci)
HIVM_TWIN_UNEMULATED(st_dev)
HIVM_TWIN_UNEMULATED(nddma_out_to_ub)
HIVM_TWIN_UNEMULATED(get_subblockid)
HIVM_TWIN_UNEMULATED(get_subblockdim)
HIVM_TWIN_UNEMULATED(copy_gm_to_ubuf_align)
HIVM_TWIN_UNEMULATED(copy_gm_to_ubuf_align_v2)
HIVM_TWIN_UNEMULATED(copy_ubuf_to_gm_align)
HIVM_TWIN_UNEMULATED(copy_ubuf_to_gm_align_v2)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf_align_v2)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf_multi_nd2nz)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf_multi_nd2nz_b8)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf_multi_nd2nz_b16)
HIVM_TWIN_UNEMULATED(copy_gm_to_cbuf_multi_nd2nz_b32s)
HIVM_TWIN_UNEMULATED(copy_ubuf_to_cbuf)
HIVM_TWIN_UNEMULATED(copy_cbuf_to_ubuf)
HIVM_TWIN_UNEMULATED(copy_cbuf_to_gm)
HIVM_TWIN_UNEMULATED(copy_cbuf_to_bt)
HIVM_TWIN_UNEMULATED(create_cbuf_matrix)
HIVM_TWIN_UNEMULATED(load_cbuf_to_ca_s4)
HIVM_TWIN_UNEMULATED(load_cbuf_to_ca_transpose)
HIVM_TWIN_UNEMULATED(load_cbuf_to_cb_transpose)
HIVM_TWIN_UNEMULATED(load_cbuf_to_cb_transpose_s4)
HIVM_TWIN_UNEMULATED(img2colv2_cbuf_to_ca)
HIVM_TWIN_UNEMULATED(img2colv2_cbuf_to_cb)
HIVM_TWIN_UNEMULATED(mad_s4)
HIVM_TWIN_UNEMULATED(mad_mx)
#undef HIVM_TWIN_UNEMULATED

#endif /* HIVM_TWIN_H */
