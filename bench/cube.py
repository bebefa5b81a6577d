#!/usr/bin/env python3
"""The cube core in the twin against numpy, side by side (medians of --runs):
a 256 x 256 x 256 f16 matmul kernel at memref level (GM -> nd2nz -> L1 ->
mmadL1 -> L0C -> fixpipe -> GM, M in two tiles of 128 rows as L0C's 128 KiB
requires, synchronised by --sync-solver) run by hivm-run, against numpy's
float32 matmul of the same shape on one thread. hivm-run's start-up
(parsing, the solver, an empty kernel's run) is measured on the same
kernel with no cube op (B not loaded, the loop running no tile) and
reported apart. The twin's result
is checked against numpy's (f32 sums of f16 products).

Usage: bench/cube.py [--runs 5] [--size 256]
Needs a release build (cargo build --release -p hivm-cli) and numpy.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "target", "release", "hivm-run")


def kernel(n, tiles):
    tm = n // 2
    l1a = f"memref<{n // 16}x{tm // 16}x16x16xf16, #hivm.address_space<cbuf>>"
    l1b = f"memref<{n // 16}x{n // 16}x16x16xf16, #hivm.address_space<cbuf>>"
    acc = f"memref<{n // 16}x{tm // 16}x16x16xf32, #hivm.address_space<cc>>"
    sa = f"memref<{tm}x{n}xf16, strided<[{n}, 1], offset: ?>>"
    sc = f"memref<{tm}x{n}xf32, strided<[{n}, 1], offset: ?>>"
    # The start-up measurement runs no cube op at all.
    load_b = f"hivm.hir.nd2nz {{dst_continuous}} ins(%b : memref<{n}x{n}xf16>) outs(%l1b : {l1b})" if tiles else ""
    return f"""func.func @mm(%a: memref<{n}x{n}xf16>, %b: memref<{n}x{n}xf16>, %c: memref<{n}x{n}xf32>) {{
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %tm = arith.constant {tm} : index
  %end = arith.constant {tiles * tm} : index
  %n = arith.constant {n} : index
  %z = arith.constant 0 : i64
  %ob = arith.constant {n * tm * 2} : i64
  %l1b = hivm.hir.pointer_cast(%ob) : {l1b}
  {load_b}
  scf.for %t = %c0 to %end step %tm {{
    %l1a = hivm.hir.pointer_cast(%z) : {l1a}
    %sa = memref.subview %a[%t, 0] [{tm}, {n}] [1, 1] : memref<{n}x{n}xf16> to {sa}
    hivm.hir.nd2nz {{dst_continuous}} ins(%sa : {sa}) outs(%l1a : {l1a})
    %acc = hivm.hir.pointer_cast(%z) : {acc}
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %tm, %n, %n : {l1a}, {l1b}, i1, index, index, index) outs(%acc : {acc})
    %sc = memref.subview %c[%t, 0] [{tm}, {n}] [1, 1] : memref<{n}x{n}xf32> to {sc}
    hivm.hir.fixpipe {{enable_nz2nd}} ins(%acc : {acc}) outs(%sc : {sc})
  }}
  return
}}
"""


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", type=int, default=256)
    args = ap.parse_args()
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ["MKL_NUM_THREADS"] = "1"
    import numpy as np

    n = args.size
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n)).astype(np.float16)
    b = rng.standard_normal((n, n)).astype(np.float16)
    with tempfile.TemporaryDirectory() as d:
        pa, pb, pc = (os.path.join(d, x) for x in ("a.npy", "b.npy", "c.npy"))
        np.save(pa, a)
        np.save(pb, b)
        full, empty = os.path.join(d, "mm.mlir"), os.path.join(d, "empty.mlir")
        open(full, "w").write(kernel(n, 2))
        open(empty, "w").write(kernel(n, 0))
        base = [RUN, "--sync-solver", "--arg", pa, "--arg", pb, "--arg", f"zeros:{n}x{n}xf32"]
        timed(base[:1] + [full] + base[1:] + ["--save", f"2={pc}"])
        got = np.load(pc)
        want = a.astype(np.float32) @ b.astype(np.float32)
        err = float(np.max(np.abs(got - want)))
        if err > 1e-3 * float(np.max(np.abs(want))):
            sys.exit(f"the twin's matmul differs from numpy's by {err}")
        twin = statistics.median(timed(base[:1] + [full] + base[1:]) for _ in range(args.runs))
        start = statistics.median(timed(base[:1] + [empty] + base[1:]) for _ in range(args.runs))
        af, bf = a.astype(np.float32), b.astype(np.float32)
        reps = 50
        samples = []
        for _ in range(args.runs):
            t = time.perf_counter()
            for _ in range(reps):
                af @ bf
            samples.append((time.perf_counter() - t) / reps)
        npy = statistics.median(samples)
    work = twin - start
    print(f"{n}x{n}x{n} f16 matmul (max |twin - numpy| = {err:.2e})")
    print(f"  numpy float32 matmul, one thread: {npy * 1e3:8.3f} ms")
    print(f"  twin, whole hivm-run:             {twin * 1e3:8.3f} ms ({twin / npy:.1f}x)")
    print(f"  twin start-up (no tile run):      {start * 1e3:8.3f} ms")
    print(f"  twin, the kernel's work:          {work * 1e3:8.3f} ms ({work / npy:.1f}x)")


main()
