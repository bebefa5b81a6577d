/* The CPU twin's per-library runtime: compiled into every implementation
 * library hivm-run builds, next to the user's sources. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "hivm_twin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hivm_twin_ctx *hivm_twin;

/* hivm-run hands each library the shared context before calling into it. */
void hivm_twin_attach(struct hivm_twin_ctx *ctx) { hivm_twin = ctx; }

void hivm_twin_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(hivm_twin->error, sizeof hivm_twin->error, fmt, ap);
  va_end(ap);
  hivm_twin->failed = 1;
  /* Implementations run in a child process: end it, hivm-run reports. */
  _exit(70);
}

#ifdef __cplusplus
}
#endif
