// Checks the twin header's vector and data-movement intrinsics against
// reference computations written element by element from the address
// formula: element k of repeat r lives at
//   base + r * repeat_stride * 32 + (k / per_block) * block_stride * 32 + (k % per_block) * sizeof(T)
// Every combination of dtype, mask mode, repeat and strides below is run,
// and all of UB is compared, so stray writes are caught too.
#include <cstdlib>
#include <vector>

static std::vector<uint8_t> ub(192 * 1024), expect(192 * 1024);
static std::vector<hivm_twin_rec> trace(1 << 20);
static hivm_twin_ctx ctx;
static long cases, failures;

extern "C" void hivm_twin_attach(hivm_twin_ctx *);

static uint64_t rng = 88172645463325252ull;
static uint64_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

template <typename T> static T sample(bool positive) {
  if constexpr (std::is_integral<T>::value) {
    T v = (T)(next() % 2001) - 1000;
    return positive && v <= 0 ? (T)(1 - v) : v;
  } else {
    float v = (float)((int)(next() % 2001) - 1000) / 64.0f;
    if (positive && v <= 0)
      v = 0.5f - v;
    return (T)v;
  }
}

/* Random values of T everywhere in UB (real numbers for float types, so
 * that no NaN payload decides a comparison). */
template <typename T> static void fill_ub(bool positive) {
  for (size_t i = 0; i + sizeof(T) <= ub.size(); i += sizeof(T)) {
    T v = sample<T>(positive);
    memcpy(&ub[i], &v, sizeof v);
  }
}

static bool active(uint64_t r, unsigned k, unsigned per_rep) {
  if (ctx.mask_counter)
    return r * per_rep + k < ctx.mask_lo;
  return k < 64 ? ((ctx.mask_lo >> k) & 1) : ((ctx.mask_hi >> (k - 64)) & 1);
}

static void compare(const char *what) {
  cases++;
  if (memcmp(ub.data(), expect.data(), ub.size()) != 0) {
    size_t i = 0;
    while (ub[i] == expect[i])
      i++;
    if (failures++ < 20)
      fprintf(stderr, "MISMATCH %s: first differing UB byte %zu (got %u, want %u)\n", what, i, ub[i], expect[i]);
  }
}

template <typename T> static double as_d(T v) { return (double)v; }

enum Op { ADD, SUB, MUL, DIV, MAX, MIN, AND, OR, ADDS, MULS, MAXS, MINS, EXP, LN, SQRT, REC, ABS, RELU };
static const char *names[] = {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor", "vadds",
                              "vmuls", "vmaxs", "vmins", "vexp", "vln", "vsqrt", "vrec", "vabs", "vrelu"};

template <typename T> static T reference(Op op, T a, T b) {
  constexpr bool fl = !std::is_integral<T>::value;
  using U = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
  auto wrap = [](long long v) { return (T)(typename std::make_unsigned<typename std::conditional<fl, int, T>::type>::type)v; };
  switch (op) {
  case ADD: case ADDS: if constexpr (fl) return (T)((float)a + (float)b); else return wrap((long long)a + b);
  case SUB: if constexpr (fl) return (T)((float)a - (float)b); else return wrap((long long)a - b);
  case MUL: case MULS: if constexpr (fl) return (T)((float)a * (float)b); else return wrap((long long)a * b);
  case DIV: return (T)((float)a / (float)b);
  case MAX: case MAXS: return as_d(a) >= as_d(b) ? a : b;
  case MIN: case MINS: return as_d(a) <= as_d(b) ? a : b;
  case AND: case OR: {
    U x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    U z = op == AND ? (U)(x & y) : (U)(x | y);
    T r;
    memcpy(&r, &z, sizeof r);
    return r;
  }
  case EXP: return (T)expf((float)a);
  case LN: return (T)logf((float)a);
  case SQRT: return (T)sqrtf((float)a);
  case REC: return (T)(1.0f / (float)a);
  case ABS: if constexpr (fl) return as_d(a) < 0 ? (T)-(float)a : a; else return a < 0 ? wrap(-(long long)a) : a;
  case RELU: return as_d(a) > 0 ? a : (T)0;
  }
  return a;
}

template <typename T> static void run_op(Op op, T *d, T *s0, T *s1, T scalar, uint8_t rep, uint8_t dbs, uint8_t sbs,
                                         uint8_t drs, uint8_t srs) {
  switch (op) {
  case ADD: vadd(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case SUB: vsub(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case MUL: vmul(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case DIV: if constexpr (!std::is_integral<T>::value) vdiv(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case MAX: vmax(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case MIN: vmin(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case AND: vand(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case OR: vor(d, s0, s1, rep, dbs, sbs, sbs, drs, srs, srs); break;
  case ADDS: vadds(d, s0, scalar, rep, dbs, sbs, drs, srs); break;
  case MULS: vmuls(d, s0, scalar, rep, dbs, sbs, drs, srs); break;
  case MAXS: vmaxs(d, s0, scalar, rep, dbs, sbs, drs, srs); break;
  case MINS: vmins(d, s0, scalar, rep, dbs, sbs, drs, srs); break;
  case EXP: if constexpr (!std::is_integral<T>::value) vexp(d, s0, rep, dbs, sbs, drs, srs); break;
  case LN: if constexpr (!std::is_integral<T>::value) vln(d, s0, rep, dbs, sbs, drs, srs); break;
  case SQRT: if constexpr (!std::is_integral<T>::value) vsqrt(d, s0, rep, dbs, sbs, drs, srs); break;
  case REC: if constexpr (!std::is_integral<T>::value) vrec(d, s0, rep, dbs, sbs, drs, srs); break;
  case ABS: vabs(d, s0, rep, dbs, sbs, drs, srs); break;
  case RELU: vrelu(d, s0, rep, dbs, sbs, drs, srs); break;
  }
}

template <typename T> static void vector_cases(const char *tname) {
  constexpr unsigned per_blk = 32 / sizeof(T), per_rep = 256 / sizeof(T);
  const bool fl = !std::is_integral<T>::value;
  // dst at 0, src0 at 64 KiB, src1 at 128 KiB: never overlapping.
  const uint64_t D = 0, S0 = 64 * 1024, S1 = 128 * 1024;
  struct Mask { int counter; uint64_t hi, lo; };
  std::vector<Mask> masks = {{0, ~0ull, ~0ull}, {0, 0, 0x5555555555555555ull}, {0, 0xf0f0f0f0f0f0f0f0ull, 0x00000000ffffffffull},
                             {0, 0x8000000000000001ull, 0x8000000000000001ull}, {0, 0, 0},
                             {1, 0, 1}, {1, 0, per_rep - 1}, {1, 0, per_rep + 3}, {1, 0, 3 * per_rep}};
  std::vector<uint8_t> pristine[2];
  fill_ub<T>(false);
  pristine[0] = ub;
  fill_ub<T>(true);
  pristine[1] = ub;
  for (int op = ADD; op <= RELU; op++) {
    if (!fl && (op == DIV || op == EXP || op == LN || op == SQRT || op == REC))
      continue;
    bool positive = op == LN || op == SQRT || op == REC || op == DIV;
    // Inputs differ between cases: each case starts at its own offset of a
    // random image.
    unsigned shift = 0;
    for (const Mask &m : masks)
      for (uint8_t rep : {0, 1, 3})
        for (uint8_t dbs : {1, 2})
          for (uint8_t sbs : {1, 3})
            for (uint8_t drs : {8, 16, 2})
              for (uint8_t srs : {8, 20}) {
                shift = (shift + 7) % 64;
                memcpy(ub.data(), pristine[positive].data() + shift * sizeof(T), ub.size() - 64 * sizeof(T));
                T scalar = sample<T>(false);
                ctx.mask_counter = m.counter;
                ctx.mask_hi = m.hi;
                ctx.mask_lo = m.lo;
                expect = ub;
                uint64_t reps = m.counter ? (m.lo + per_rep - 1) / per_rep : rep;
                for (uint64_t r = 0; r < reps; r++)
                  for (unsigned k = 0; k < per_rep; k++) {
                    if (!active(r, k, per_rep))
                      continue;
                    uint64_t dd = D + r * drs * 32 + (k / per_blk) * dbs * 32 + (k % per_blk) * sizeof(T);
                    uint64_t aa = S0 + r * srs * 32 + (k / per_blk) * sbs * 32 + (k % per_blk) * sizeof(T);
                    uint64_t bb = S1 + r * srs * 32 + (k / per_blk) * sbs * 32 + (k % per_blk) * sizeof(T);
                    T a, b, out;
                    memcpy(&a, &ub[aa], sizeof a);
                    memcpy(&b, &ub[bb], sizeof b);
                    if (op >= ADDS && op <= MINS)
                      b = scalar;
                    out = reference<T>((Op)op, a, b);
                    memcpy(&expect[dd], &out, sizeof out);
                  }
                run_op<T>((Op)op, (T *)(uintptr_t)D, (T *)(uintptr_t)S0, (T *)(uintptr_t)S1, scalar, rep, dbs, sbs,
                          drs, srs);
                char what[160];
                snprintf(what, sizeof what, "%s<%s> mask=%d:%llx:%llx repeat=%u strides=%u/%u %u/%u", names[op],
                         tname, m.counter, (unsigned long long)m.hi, (unsigned long long)m.lo, rep, dbs, sbs, drs,
                         srs);
                compare(what);
                ctx.trace_len = 0;
              }
  }
}

static void copy_cases() {
  std::vector<uint8_t> gm(4096), gm_expect;
  hivm_twin_region region = {(uint64_t)(uintptr_t)gm.data(), gm.size()};
  ctx.regions = &region;
  ctx.n_regions = 1;
  for (unsigned elem : {1u, 2u, 4u})
    for (uint16_t n_burst : {1, 3})
      for (uint32_t len : {32u, 20u, 64u})
        for (uint8_t lp : {0, 2})
          for (uint8_t rp : {0, 1})
            for (uint32_t sgap : {0u, 12u})
              for (uint32_t dgap : {0u, 1u}) {
                if (len % elem)
                  continue;
                // GM -> UB
                fill_ub<int32_t>(false);
                for (auto &b : gm)
                  b = (uint8_t)next();
                expect = ub;
                uint64_t burst = (lp * elem + len + rp * elem + 31) / 32 * 32;
                for (unsigned i = 0; i < n_burst; i++) {
                  uint64_t d = 64 + i * (burst + dgap * 32), s = 8 + i * (len + sgap);
                  for (uint64_t j = 0; j < burst; j++) {
                    uint64_t from = j - lp * elem;
                    expect[d + j] = (j >= lp * elem && from < len) ? gm[s + from] : 0;
                  }
                }
                void *dst = (void *)(uintptr_t)64;
                const void *src = gm.data() + 8;
                if (elem == 1) copy_gm_to_ubuf_align_b8(dst, src, 0, n_burst, len, lp, rp, sgap, dgap);
                if (elem == 2) copy_gm_to_ubuf_align_b16(dst, src, 0, n_burst, len, lp, rp, sgap, dgap);
                if (elem == 4) copy_gm_to_ubuf_align_b32(dst, src, 0, n_burst, len, lp, rp, sgap, dgap);
                compare("copy_gm_to_ubuf_align");
                // UB -> GM
                gm_expect = gm;
                for (unsigned i = 0; i < n_burst; i++) {
                  uint64_t s = 64 + i * ((len + 31) / 32 * 32 + dgap * 32), d = 8 + i * (len + sgap);
                  for (uint64_t j = 0; j < len; j++)
                    gm_expect[d + j] = ub[s + j];
                }
                if (elem == 1) copy_ubuf_to_gm_align_b8(gm.data() + 8, (void *)(uintptr_t)64, 0, n_burst, len, 0, 0, dgap, sgap);
                if (elem == 2) copy_ubuf_to_gm_align_b16(gm.data() + 8, (void *)(uintptr_t)64, 0, n_burst, len, 0, 0, dgap, sgap);
                if (elem == 4) copy_ubuf_to_gm_align_b32(gm.data() + 8, (void *)(uintptr_t)64, 0, n_burst, len, 0, 0, dgap, sgap);
                cases++;
                if (gm != gm_expect && failures++ < 20)
                  fprintf(stderr, "MISMATCH copy_ubuf_to_gm_align elem=%u n=%u len=%u gaps=%u/%u\n", elem, n_burst, len,
                          dgap, sgap);
                ctx.trace_len = 0;
              }
  // UB -> UB, lengths and gaps in 32-byte blocks.
  for (uint16_t n_burst : {1, 2, 4})
    for (uint16_t len : {1, 3})
      for (uint16_t sgap : {0, 2})
        for (uint16_t dgap : {0, 1}) {
          fill_ub<int32_t>(false);
          expect = ub;
          for (unsigned i = 0; i < n_burst; i++)
            for (unsigned j = 0; j < len * 32u; j++)
              expect[8192 + i * (len + dgap) * 32 + j] = ub[1024 + i * (len + sgap) * 32 + j];
          copy_ubuf_to_ubuf((void *)(uintptr_t)8192, (void *)(uintptr_t)1024, 0, n_burst, len, sgap, dgap);
          compare("copy_ubuf_to_ubuf");
          ctx.trace_len = 0;
        }
}

int main() {
  ctx.ub_base = ub.data();
  ctx.ub_size = ub.size();
  ctx.trace = trace.data();
  ctx.trace_cap = trace.size();
  hivm_twin_attach(&ctx);
  vector_cases<half>("half");
  vector_cases<float>("float");
  vector_cases<int16_t>("int16_t");
  vector_cases<int32_t>("int32_t");
  copy_cases();
  printf("%ld cases, %ld failures\n", cases, failures);
  return failures ? 1 : 0;
}
