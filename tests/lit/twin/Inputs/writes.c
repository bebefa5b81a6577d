/* Implementations that write where they may not, with plain C stores (no
 * intrinsic, so no trace), and correct ones. */
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} m1;

static float *at(m1 *m, int64_t i) { return m->aligned + m->offset + i * m->strides[0]; }

/* out = in + 1, correctly. */
void _mlir_ciface_add_one(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
}

/* The classic `<=`: one element past the end of the output. */
void _mlir_ciface_one_past(m1 *in, m1 *out) {
  for (int64_t i = 0; i <= out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
}

/* Writes its input back as well. */
void _mlir_ciface_writes_in(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++) {
    *at(out, i) = *at(in, i) + 1.0f;
    *at(in, i) = 7.0f;
  }
}

/* Writes 64 bytes past its output's end. */
void _mlir_ciface_far_past(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  *at(out, out->sizes[0] + 16) = 5.0f;
}

/* Writes the first GM buffer the twin knows that is not its output. */
void _mlir_ciface_other_gm(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  for (uint64_t r = 0; r < hivm_twin->n_regions; r++) {
    uint64_t s = hivm_twin->regions[r].start;
    if (s != (uint64_t)(uintptr_t)out->aligned && s != (uint64_t)(uintptr_t)in->aligned) {
      ((float *)(uintptr_t)s)[1] = 9.0f;
      return;
    }
  }
}

/* As other_gm, but first makes that buffer's page writable (mprotect). */
void _mlir_ciface_other_gm_unprotected(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  for (uint64_t r = 0; r < hivm_twin->n_regions; r++) {
    uint64_t s = hivm_twin->regions[r].start;
    if (s != (uint64_t)(uintptr_t)out->aligned && s != (uint64_t)(uintptr_t)in->aligned) {
      mprotect((void *)(uintptr_t)(s & ~(uint64_t)4095), 4096, PROT_READ | PROT_WRITE);
      ((float *)(uintptr_t)s)[1] = 9.0f;
      return;
    }
  }
}

/* Empties the pages of every GM buffer it was not passed (MADV_REMOVE
 * reads back as zeros), without a single store. */
void _mlir_ciface_punch_other_gm(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  for (uint64_t r = 0; r < hivm_twin->n_regions; r++) {
    uint64_t s = hivm_twin->regions[r].start;
    if (s != (uint64_t)(uintptr_t)out->aligned && s != (uint64_t)(uintptr_t)in->aligned)
      madvise((void *)(uintptr_t)(s & ~(uint64_t)4095), 4096, MADV_REMOVE);
  }
}

/* As punch_other_gm, through process_madvise on its own process (the
 * kernel acting on its behalf). */
void _mlir_ciface_punch_other_gm_remotely(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
  for (uint64_t r = 0; r < hivm_twin->n_regions; r++) {
    uint64_t s = hivm_twin->regions[r].start;
    if (s != (uint64_t)(uintptr_t)out->aligned && s != (uint64_t)(uintptr_t)in->aligned) {
      struct iovec v = {(void *)(uintptr_t)((s + 4095) & ~(uint64_t)4095), 4096};
      syscall(SYS_process_madvise, pidfd, &v, 1, MADV_REMOVE, 0);
    }
  }
}

/* Maps the memory of the GM buffers it was not passed a second time,
 * writable, through /proc/self/map_files (possible for root only), and
 * writes there. */
void _mlir_ciface_other_gm_remapped(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  for (uint64_t r = 0; r < hivm_twin->n_regions; r++) {
    uint64_t s = hivm_twin->regions[r].start;
    if (s == (uint64_t)(uintptr_t)out->aligned || s == (uint64_t)(uintptr_t)in->aligned)
      continue;
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
      unsigned long lo, hi;
      if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && s >= lo && s < hi) {
        char path[128];
        snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", lo, hi);
        int fd = open(path, O_RDWR);
        if (fd >= 0) {
          float *w = (float *)mmap(0, hi - lo, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
          if (w != MAP_FAILED)
            w[(s - lo) / 4 + 1] = 9.0f;
        }
      }
    }
    if (f)
      fclose(f);
  }
}

/* In place: x += 1 through its ins operand. */
void _mlir_ciface_inc(m1 *x, m1 *out) {
  (void)out;
  for (int64_t i = 0; i < x->sizes[0]; i++)
    *at(x, i) += 1.0f;
}

/* Writes its output and, 8 KiB further on, memory it was not passed (in
 * L1, when the output is there). */
void _mlir_ciface_l1_far(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  *at(out, 2048) = 5.0f;
}

/* out = in + 1, and one element more past the output's end (which a view
 * of a larger buffer has, on the same page). */
void _mlir_ciface_view_past(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  *at(out, out->sizes[0]) = 5.0f;
}

/* Flips every bit of one float, so each of its bytes changes whatever UB
 * held there. */
static void flip(float *p) { *(volatile uint32_t *)p ^= 0xFFFFFFFFu; }

/* out = in + 1, then the classic `<=` step one element past the end. */
void _mlir_ciface_flip_one_past(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  flip(at(out, out->sizes[0]));
}

/* A stray store three pages on. */
void _mlir_ciface_flip_far(m1 *in, m1 *out) {
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  flip(at(out, 3000));
}

/* Scratch three pages on, through intrinsics (as upstream's examples form
 * it, from an integer UB address): out = in + 1 by way of the scratch. Then
 * `extra` plain stores: 1 into the scratch the intrinsic wrote (allowed),
 * 2 next to it (not). */
static void via_far_scratch(m1 *in, m1 *out, int extra) {
  float *scratch = (float *)(uintptr_t)12288;
  for (int64_t i = 0; i < out->sizes[0]; i++)
    *at(out, i) = *at(in, i) + 1.0f;
  copy_ubuf_to_ubuf(scratch, at(out, 0), 0, 1, 1, 0, 0);
  pipe_barrier(PIPE_V);
  copy_ubuf_to_ubuf(at(out, 0), scratch, 0, 1, 1, 0, 0);
  float *host = (float *)(hivm_twin->ub_base + 12288);
  if (extra == 1)
    flip(host + 1);
  if (extra == 2)
    flip(host + 8);
}
void _mlir_ciface_far_scratch(m1 *in, m1 *out) { via_far_scratch(in, out, 0); }
void _mlir_ciface_far_scratch_plain(m1 *in, m1 *out) { via_far_scratch(in, out, 1); }
void _mlir_ciface_far_scratch_stray(m1 *in, m1 *out) { via_far_scratch(in, out, 2); }
