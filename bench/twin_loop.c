/* The native counterpart of the interpreter benchmark's kernel: the same
 * loop (acc += i * 3 over n iterations), kept from being folded away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 250000;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int64_t acc = 0;
  for (int64_t i = 0; i < n; i++) {
    acc += i * 3;
    __asm__ volatile("" : "+r"(acc));
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.9f %lld\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, (long long)acc);
  return 0;
}
