// Implementations for worker.mlir: many calls into one long-lived worker.
#include "memref.h"
#include <thread>
#include <unistd.h>

extern "C" {
void _mlir_ciface_bump(memref_t<float, 1> *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++)
    m->aligned[m->offset + i * m->strides[0]] += 1.0f;
}

void _mlir_ciface_add_into(memref_t<float, 1> *in, memref_t<float, 1> *acc) {
  for (int64_t i = 0; i < acc->sizes[0]; i++)
    acc->aligned[acc->offset + i * acc->strides[0]] += in->aligned[in->offset + i * in->strides[0]];
}

// Returns with a thread still running that writes into its output later.
void _mlir_ciface_leaves_thread(memref_t<float, 1> *out) {
  float *p = out->aligned + out->offset;
  p[0] = 1.0f;
  std::thread([p] {
    usleep(100 * 1000);
    p[1] = 99.0f;
  }).detach();
}

void _mlir_ciface_nap(memref_t<float, 1> *) { usleep(300 * 1000); }
}

extern "C" {
// Leaves an alarm pending: it must not go off in a later call.
void _mlir_ciface_sets_alarm(memref_t<float, 1> *) { alarm(1); }

void _mlir_ciface_long_nap(memref_t<float, 1> *) { usleep(1300 * 1000); }
}
