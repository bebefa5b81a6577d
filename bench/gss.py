#!/usr/bin/env python3
"""Times hivm-opt -hivm-graph-sync-solver on generated kernels (bench/gss_gen.py:
groups of load/vadd/vmul/store under loop nests of depth 1-3) of growing size,
medians of --runs runs, and prints how the time grows. Sizes whose first run
exceeds --limit seconds are not repeated and larger ones are skipped.

    python3 bench/gss.py [--sizes 1000,10000,50000] [--runs 3] [--limit 120]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--sizes", default="1000,10000,50000")
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--limit", type=float, default=120.0)
ap.add_argument("--opt", default=os.path.join(root, "target/release/hivm-opt"))
a = ap.parse_args()
if not os.path.exists(a.opt):
    subprocess.run(["cargo", "build", "--release", "-p", "hivm-cli"], cwd=root, check=True)
prev = None
print(f"{'ops':>7} | {'median s':>9} {'us/op':>8} | growth vs previous size")
with tempfile.TemporaryDirectory() as d:
    for n in [int(x) for x in a.sizes.split(",")]:
        path = os.path.join(d, f"k{n}.mlir")
        with open(path, "w") as f:
            subprocess.run([sys.executable, os.path.join(root, "bench/gss_gen.py"), str(n)], stdout=f, check=True)
        times = []
        for _ in range(a.runs):
            t = time.perf_counter()
            subprocess.run([a.opt, path, "-hivm-graph-sync-solver", "-o", os.devnull], check=True)
            times.append(time.perf_counter() - t)
            if times[-1] > a.limit:
                break
        m = statistics.median(times)
        growth = f"{m / prev[1]:.1f}x time for {n / prev[0]:.1f}x ops" if prev else ""
        print(f"{n:>7} | {m:>9.3f} {m / n * 1e6:>8.1f} | {growth}", flush=True)
        prev = (n, m)
        if m > a.limit:
            print(f"stopping: {n} ops took over {a.limit} s")
            break
