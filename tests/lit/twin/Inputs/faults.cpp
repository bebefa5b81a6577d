// Implementations that misbehave, one per way hivm-run must survive.
#include "memref.h"

extern "C" {
void _mlir_ciface_null_deref(memref_t<float, 1> *out) {
  float *volatile p = nullptr;
  out->aligned[0] = *p;
}

void _mlir_ciface_spin(memref_t<float, 1> *out) {
  volatile int forever = 1;
  while (forever)
    out->aligned[0] += 1.0f;
}

void _mlir_ciface_call_abort(memref_t<float, 1> *) { __builtin_trap(); }

// A vector add one repeat longer than UB.
void _mlir_ciface_past_ub(memref_t<float, 1> *) {
  vadd((float *)(uintptr_t)(192 * 1024 - 128), (float *)(uintptr_t)0, (float *)(uintptr_t)0, 1, 1, 1, 1, 8, 8, 8);
}

// A GM -> UB copy that reads past the end of its 16-float argument.
void _mlir_ciface_past_gm(memref_t<float, 1> *in) {
  copy_gm_to_ubuf_align_b32((void *)(uintptr_t)0, in->aligned, 0, 1, 32 * sizeof(float), 0, 0, 0, 0);
}

void _mlir_ciface_exits(memref_t<float, 1> *) { exit(3); }
}

extern "C" {
// Writes one element past the end of its 16-float output.
void _mlir_ciface_past_end(memref_t<float, 1> *out) {
  for (int i = 0; i <= 16 + 8; i++)
    out->aligned[i] = 1.0f;
}
}

extern "C" {
// Writes the element just before its output and the one just after it.
void _mlir_ciface_around(memref_t<float, 1> *out) {
  out->aligned[-1] = 1.0f;
  out->aligned[out->sizes[0]] = 1.0f;
}
}

#include <sched.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
// Ends the process with status 0 instead of returning.
void _mlir_ciface_exits_zero(memref_t<float, 1> *) { exit(0); }

void _mlir_ciface_underscore_exit(memref_t<float, 1> *) { _exit(0); }

static void spinner() {
  prctl(PR_SET_NAME, "hivm-test-spin");
  for (;;)
    ;
}

// Leaves a process spinning behind and returns.
void _mlir_ciface_forks_and_returns(memref_t<float, 1> *) {
  if (fork() == 0)
    spinner();
}

// Daemonises a spinner (double fork, a new session: outside the caller's
// process group) and returns once the daemon runs.
void _mlir_ciface_daemonises(memref_t<float, 1> *) {
  int ready[2];
  if (pipe(ready) != 0)
    return;
  pid_t first = fork();
  if (first == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "hivm-test-dmn");
      char c = 1;
      (void)!write(ready[1], &c, 1);
      for (;;)
        ;
    }
    _exit(0);
  }
  char c;
  (void)!read(ready[0], &c, 1);
  waitpid(first, nullptr, 0);
}

// Daemonises a writer (double fork, setsid: still in the worker's tree)
// that goes on writing 42 over the call's output for two seconds after the
// call has returned.
void _mlir_ciface_daemon_writes(memref_t<float, 1> *out) {
  int ready[2];
  if (pipe(ready) != 0)
    return;
  pid_t first = fork();
  if (first == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "hivm-test-dwr");
      char c = 1;
      (void)!write(ready[1], &c, 1);
      for (int i = 0; i < 2000; ++i) {
        for (int j = 0; j < out->sizes[0]; ++j)
          out->aligned[out->offset + j] = 42.0f;
        usleep(1000);
      }
      _exit(0);
    }
    _exit(0);
  }
  char c;
  (void)!read(ready[0], &c, 1);
  waitpid(first, nullptr, 0);
}

// Starts a sibling of the worker (clone with CLONE_PARENT: a child of the
// twin's own process, outside the worker's tree) that would go on writing
// 42 over the call's output for three seconds. (Refused: nothing starts.)
void _mlir_ciface_sibling(memref_t<float, 1> *out) {
  long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
  if (pid == 0) {
    prctl(PR_SET_NAME, "hivm-test-sib");
    setsid();
    for (int i = 0; i < 3000; ++i) {
      for (int j = 0; j < out->sizes[0]; ++j)
        out->aligned[out->offset + j] = 42.0f;
      usleep(1000);
    }
    _exit(0);
  }
}

// Runs a program per element (`system`, which forks and execs a shell) and
// writes 1 where it ran: programs an implementation runs work under the
// worker's confinement.
void _mlir_ciface_runs_programs(memref_t<float, 1> *out) {
  for (int64_t i = 0; i < out->sizes[0]; ++i)
    out->aligned[out->offset + i] = system("true") == 0 ? 1.0f : 0.0f;
}

// Leaves a process spinning behind and spins itself.
void _mlir_ciface_forks_and_spins(memref_t<float, 1> *) {
  if (fork() == 0)
    spinner();
  volatile int forever = 1;
  while (forever)
    ;
}

// Recursion without end, each frame with a large local array.
static int deep(volatile int n) {
  volatile char frame[4096];
  frame[n % 4096] = (char)n;
  return deep(n + 1) + frame[0];
}
void _mlir_ciface_overflows_stack(memref_t<float, 1> *out) { out->aligned[0] = (float)deep(0); }
}

// Tries to escape the call worker's sweep: clears the worker's subreaper
// flag (refused), then daemonises a sleeper (double fork, setsid) and reaps
// the middle process. Were the flag cleared, the sleeper would leave the
// worker's tree. (It ends itself after 20 s, should it escape.)
extern "C" void _mlir_ciface_escapes(memref_t<float, 1> *) {
  prctl(PR_SET_CHILD_SUBREAPER, 0);
  pid_t middle = fork();
  if (middle == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "hivm-test-esc");
      for (int i = 0; i < 200; ++i)
        usleep(100000);
      _exit(0);
    }
    _exit(0);
  }
  if (middle > 0)
    waitpid(middle, nullptr, 0);
}
