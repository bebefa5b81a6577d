/* What isolating each call in a fork costs at the least: fork, _exit and
   waitpid of a small C process, per call (bench/twin.py). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < n; i++) {
    pid_t pid = fork();
    if (pid == 0)
      _exit(0);
    waitpid(pid, NULL, 0);
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%.9f\n", ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9) / n);
  return 0;
}
