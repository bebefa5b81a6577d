// A macro with two internal MTE2 -> V slots that reports the event ids it
// was given and makes one handshake with each.
#include "memref.h"

extern "C" {
void _mlir_ciface_two_slots(memref_t<int64_t, 1> *ids, int64_t e0, int64_t e1) {
  ids->aligned[0] = e0;
  ids->aligned[1] = e1;
  set_flag(PIPE_MTE2, PIPE_V, e0);
  set_flag(PIPE_MTE2, PIPE_V, e1);
  wait_flag(PIPE_MTE2, PIPE_V, e0);
  wait_flag(PIPE_MTE2, PIPE_V, e1);
}
}
