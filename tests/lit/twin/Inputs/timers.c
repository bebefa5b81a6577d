/* Implementations that leave code to run after their call returns: a timer
 * whose signal handler (or thread) writes the output it was given, later,
 * when that memory belongs to something else. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} m1;

static volatile float *kept;

static void later(int sig) {
  (void)sig;
  if (kept)
    kept[0] = 99.0f;
}

static void later_thread(union sigval v) {
  (void)v;
  if (kept)
    kept[0] = 77.0f;
}

static void add_one(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    out->aligned[out->offset + i] = in->aligned[in->offset + i] + 1.0f;
  kept = out->aligned + out->offset;
}

static void on(int sig) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = later;
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, 0);
}

void _mlir_ciface_signal_timer(m1 *in, m1 *out) {
  add_one(in, out);
  on(SIGUSR2);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGUSR2;
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, &ev, &t) == 0) {
    struct itimerspec every = {{0, 100000}, {0, 100000}};
    timer_settime(t, 0, &every, 0);
  }
}

void _mlir_ciface_thread_timer(m1 *in, m1 *out) {
  add_one(in, out);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = later_thread;
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, &ev, &t) == 0) {
    struct itimerspec every = {{0, 100000}, {0, 100000}};
    timer_settime(t, 0, &every, 0);
  }
}

void _mlir_ciface_profiling_timer(m1 *in, m1 *out) {
  add_one(in, out);
  on(SIGPROF);
  struct itimerval every = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &every, 0);
}

/* An alarm is allowed, and cancelled when the call returns. */
void _mlir_ciface_alarm_timer(m1 *in, m1 *out) {
  add_one(in, out);
  on(SIGALRM);
  alarm(1);
}

/* A signal left blocked and pending runs its handler before the call
 * counts as done (the worker's signal mask is restored), not in a later call. */
void _mlir_ciface_pending_signal(m1 *in, m1 *out) {
  add_one(in, out);
  on(SIGUSR1);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGUSR1);
  sigprocmask(SIG_BLOCK, &s, 0);
  raise(SIGUSR1);
}

/* What the worker answers: 1 where a request is refused with EPERM. */
void _mlir_ciface_refusals(m1 *in, m1 *out) {
  add_one(in, out);
  float *o = out->aligned + out->offset;
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_NONE;
  timer_t t;
  o[0] = timer_create(CLOCK_MONOTONIC, &ev, &t) == -1 && errno == EPERM;
  struct itimerval once = {{0, 0}, {5, 0}};
  o[1] = setitimer(ITIMER_REAL, &once, 0) == -1 && errno == EPERM;
  int sv[2];
  o[2] = 0;
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
    o[2] = fcntl(sv[0], F_SETOWN, getpid()) == -1 && errno == EPERM;
    o[3] = fcntl(sv[0], F_SETFL, O_NONBLOCK) == 0; /* other fcntl requests still work */
    close(sv[0]);
    close(sv[1]);
  }
}
