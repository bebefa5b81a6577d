// Emulated vadd (the twin header, counter mask over all elements) against a
// native C loop doing the same additions, side by side in one process.
// Built by bench/twin.py with the twin header force-included.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

extern "C" void hivm_twin_attach(hivm_twin_ctx *);

int main(int argc, char **argv) {
  const uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : (16u << 20);
  const int runs = argc > 2 ? atoi(argv[2]) : 5;
  // The emulated UB is made large enough for the three operands.
  std::vector<float> ub(3 * n + 64);
  std::vector<hivm_twin_rec> trace(64);
  hivm_twin_ctx ctx = {};
  ctx.ub_base = (uint8_t *)ub.data();
  ctx.ub_size = ub.size() * sizeof(float);
  ctx.trace = trace.data();
  ctx.trace_cap = trace.size();
  hivm_twin_attach(&ctx);
  float *a = ub.data(), *b = a + n, *c = b + n;
  for (uint64_t i = 0; i < n; i++) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)(i % 777);
  }
  std::vector<double> native, emulated;
  std::vector<float> ref(n);
  for (int r = 0; r < runs; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < n; i++)
      ref[i] = a[i] + b[i];
    auto t1 = std::chrono::steady_clock::now();
    ctx.trace_len = 0;
    set_mask_count();
    set_vector_mask(0, n);
    vadd((float *)(uintptr_t)(2 * n * sizeof(float)), (float *)(uintptr_t)0, (float *)(uintptr_t)(n * sizeof(float)),
         0, 1, 1, 1, 8, 8, 8);
    set_mask_norm();
    auto t2 = std::chrono::steady_clock::now();
    native.push_back(std::chrono::duration<double>(t1 - t0).count());
    emulated.push_back(std::chrono::duration<double>(t2 - t1).count());
    if (memcmp(ref.data(), c, n * sizeof(float)) != 0) {
      fprintf(stderr, "emulated vadd differs from the native loop\n");
      return 1;
    }
  }
  std::sort(native.begin(), native.end());
  std::sort(emulated.begin(), emulated.end());
  printf("%.6f %.6f %llu\n", native[runs / 2], emulated[runs / 2], (unsigned long long)ctx.trace_len);
  return 0;
}
