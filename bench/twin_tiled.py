#!/usr/bin/env python3
"""The tiled kernel, in the twin and natively, side by side:
1M f32 elements in tiles of 8192, each tile loaded twice GM->UB
(hivm.hir.load on MTE2), added (hivm.hir.vadd on V) and stored UB->GM
(hivm.hir.store on MTE3), synchronised by the sync solver (--sync-solver;
the kernel is written without flags). Two peers: C (gcc -O2) doing the same
tiles with memcpy and an add loop, and the same kernel in upstream dialects
(memref.copy per tile, an scf.for add loop) lowered by MLIR 22's mlir-opt and
mlir-translate and compiled by clang -O2. Every side runs once per fresh
process on zero-filled outputs, alternated; medians of --runs; hivm-run's
start-up (an empty kernel with the same arguments) is subtracted.

Usage: bench/twin_tiled.py [--runs 5] [--elements 1048576] [--tile 8192]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "target", "release", "hivm-run")

KERNEL = """func.func @tiled(%a: memref<{n}xf32>, %b: memref<{n}xf32>, %out: memref<{n}xf32>) {{
  %c0 = arith.constant 0 : index
  %t = arith.constant {tile} : index
  %n = arith.constant {n} : index
  %x = memref.alloc() : memref<{tile}xf32, #hivm.address_space<ub>>
  %y = memref.alloc() : memref<{tile}xf32, #hivm.address_space<ub>>
  %z = memref.alloc() : memref<{tile}xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %t {{
    %sa = memref.subview %a[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    %sb = memref.subview %b[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    %so = memref.subview %out[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    hivm.hir.load ins(%sa : memref<{tile}xf32, strided<[1], offset: ?>>) outs(%x : memref<{tile}xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%sb : memref<{tile}xf32, strided<[1], offset: ?>>) outs(%y : memref<{tile}xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%x, %y : memref<{tile}xf32, #hivm.address_space<ub>>, memref<{tile}xf32, #hivm.address_space<ub>>) outs(%z : memref<{tile}xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%z : memref<{tile}xf32, #hivm.address_space<ub>>) outs(%so : memref<{tile}xf32, strided<[1], offset: ?>>)
  }}
  return
}}
"""

EMPTY = """func.func @tiled(%a: memref<{n}xf32>, %b: memref<{n}xf32>, %out: memref<{n}xf32>) {{
  return
}}
"""

NATIVE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv) {
  long n = atol(argv[1]), tile = atol(argv[2]);
  float *a = calloc(n, 4), *b = calloc(n, 4), *out = calloc(n, 4);
  float *x = malloc(tile * 4), *y = malloc(tile * 4), *z = malloc(tile * 4);
  for (long i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; i += tile) {
    memcpy(x, a + i, tile * 4);
    memcpy(y, b + i, tile * 4);
    for (long k = 0; k < tile; k++) z[k] = x[k] + y[k];
    memcpy(out + i, z, tile * 4);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.9f %f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, out[n - 1]);
  return 0;
}
"""


MLIR_KERNEL = """func.func @tiled(%a: memref<{n}xf32>, %b: memref<{n}xf32>, %out: memref<{n}xf32>)
    attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant {tile} : index
  %n = arith.constant {n} : index
  %x = memref.alloc() : memref<{tile}xf32>
  %y = memref.alloc() : memref<{tile}xf32>
  %z = memref.alloc() : memref<{tile}xf32>
  scf.for %i = %c0 to %n step %t {{
    %sa = memref.subview %a[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    %sb = memref.subview %b[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    %so = memref.subview %out[%i] [{tile}] [1] : memref<{n}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
    memref.copy %sa, %x : memref<{tile}xf32, strided<[1], offset: ?>> to memref<{tile}xf32>
    memref.copy %sb, %y : memref<{tile}xf32, strided<[1], offset: ?>> to memref<{tile}xf32>
    scf.for %j = %c0 to %t step %c1 {{
      %p = memref.load %x[%j] : memref<{tile}xf32>
      %q = memref.load %y[%j] : memref<{tile}xf32>
      %s = arith.addf %p, %q : f32
      memref.store %s, %z[%j] : memref<{tile}xf32>
    }}
    memref.copy %z, %so : memref<{tile}xf32> to memref<{tile}xf32, strided<[1], offset: ?>>
  }}
  memref.dealloc %x : memref<{tile}xf32>
  memref.dealloc %y : memref<{tile}xf32>
  memref.dealloc %z : memref<{tile}xf32>
  return
}}
"""

# Calls the lowered kernel once through its C interface (rank-1 memref
# descriptors) and checks the sums.
MLIR_DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef struct { float *alloc, *aligned; int64_t offset, size, stride; } M1;
void _mlir_ciface_tiled(M1 *a, M1 *b, M1 *out);
int main(int argc, char **argv) {
  long n = atol(argv[1]);
  float *a = calloc(n, 4), *b = calloc(n, 4), *out = calloc(n, 4);
  for (long i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  M1 A = {a, a, 0, n, 1}, B = {b, b, 0, n, 1}, O = {out, out, 0, n, 1};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  _mlir_ciface_tiled(&A, &B, &O);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (long i = 0; i < n; i++)
    if (out[i] != a[i] + b[i]) { fprintf(stderr, "wrong sum at %ld\n", i); return 1; }
  printf("%.9f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
"""

LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
LOWER = ["--expand-strided-metadata", "--convert-scf-to-cf", "--convert-arith-to-llvm", "--finalize-memref-to-llvm",
         "--convert-func-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]


def build_mlir_peer(d, n, tile):
    """The kernel in upstream dialects, lowered by MLIR 22 and built by clang."""
    for tool in ("mlir-opt", "mlir-translate", "clang"):
        if not os.path.exists(os.path.join(LLVM_BIN, tool)):
            sys.exit(f"missing {os.path.join(LLVM_BIN, tool)} (apt-get install mlir-22-tools clang-22)")
    src, ll_mlir, ll, drv, exe = (os.path.join(d, f) for f in ("k.mlir", "k.llvm.mlir", "k.ll", "drv.c", "mlir_peer"))
    open(src, "w").write(MLIR_KERNEL.format(n=n, tile=tile))
    open(drv, "w").write(MLIR_DRIVER)
    subprocess.run([os.path.join(LLVM_BIN, "mlir-opt"), src, *LOWER, "-o", ll_mlir], check=True)
    subprocess.run([os.path.join(LLVM_BIN, "mlir-translate"), "--mlir-to-llvmir", ll_mlir, "-o", ll], check=True)
    subprocess.run([os.path.join(LLVM_BIN, "clang"), "-O2", "-Wno-override-module", ll, drv, "-o", exe], check=True)
    return exe


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return time.perf_counter() - t, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--elements", type=int, default=1 << 20)
    ap.add_argument("--tile", type=int, default=8192)
    a = ap.parse_args()
    if not os.path.exists(RUN):
        sys.exit(f"missing {RUN} (cargo build --release -p hivm-cli)")
    with tempfile.TemporaryDirectory() as d:
        k, e, c = (os.path.join(d, f) for f in ("tiled.mlir", "empty.mlir", "native.c"))
        open(k, "w").write(KERNEL.format(n=a.elements, tile=a.tile))
        open(e, "w").write(EMPTY.format(n=a.elements))
        open(c, "w").write(NATIVE)
        exe = os.path.join(d, "native")
        subprocess.run(["cc", "-O2", c, "-o", exe], check=True)
        peer = build_mlir_peer(d, a.elements, a.tile)
        args = sum([["--arg", f"zeros:{a.elements}xf32"] for _ in range(3)], [])
        twin, base, native, lowered = [], [], [], []
        for _ in range(a.runs):  # alternate them, so noise hits all alike
            base.append(timed([RUN, e, "--sync-solver"] + args)[0])
            twin.append(timed([RUN, k, "--sync-solver"] + args)[0])
            native.append(float(timed([exe, str(a.elements), str(a.tile)])[1].split()[0]))
            lowered.append(float(timed([peer, str(a.elements)])[1].split()[0]))
        t = max(statistics.median(twin) - statistics.median(base), 1e-9)
        nat = statistics.median(native)
        low = statistics.median(lowered)
        n = a.elements
        print(f"tiled kernel, {n} f32 elements in tiles of {a.tile} (median of {a.runs}):")
        print(f"  native C (gcc -O2)  {nat * 1e3:9.3f} ms  ({nat / n * 1e9:6.2f} ns/element)")
        print(f"  hivm-run            {t * 1e3:9.3f} ms  ({t / n * 1e9:6.2f} ns/element; start-up "
              f"{statistics.median(base) * 1e3:.1f} ms excluded)")
        print(f"  MLIR 22 + clang -O2 {low * 1e3:9.3f} ms  ({low / n * 1e9:6.2f} ns/element)")
        print(f"  ratio twin/native: {t / nat:.1f}x (goal <= 3x); twin/MLIR+clang: {t / low:.1f}x")


main()
