#!/usr/bin/env python3
"""Custom-op pass pipeline benchmark: time per op must stay flat as kernels grow.

Usage: bench/passes.py [--sizes 10000,100000] [--runs 3]
For generated tensor kernels of N custom ops (bench/gen.py pipeline) it times
  pipeline   hivm-opt -hivm-alloc-extra-buffer -one-shot-bufferize
             -convert-hivm-to-std -canonicalize -cse
  parse+print  hivm-opt with no passes (to separate the passes' share)
  reference  mlir-opt -one-shot-bufferize=allow-unknown-ops -canonicalize -cse
             (upstream's bufferizer on the same file, custom ops unknown to it,
             so a yardstick rather than the same work)
and prints medians, microseconds per op, peak memory (MiB) with its ratio, and the growth of the per-op time
from the smallest size (1.00 = linear). Needs a release build and mlir-22-tools.
"""
import os, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import MLIR, OURS, ROOT, measure, parse_args  # noqa: E402

PIPELINE = ["-hivm-alloc-extra-buffer", "-one-shot-bufferize", "-convert-hivm-to-std", "-canonicalize", "-cse"]


def main():
    a = parse_args("10000,100000")
    print(f"{'ops':>7} | {'pipeline s':>10} {'us/op':>6} {'growth':>6} {'MiB':>5} | {'parse+print s':>13} | "
          f"{'mlir-opt ref s':>14} {'us/op':>6} {'MiB':>5} | {'ratio':>5} {'mem':>5}")
    base = None
    for n in [int(s) for s in a.sizes.split(",")]:
        path = os.path.join(a.workdir, f"pipeline-{n}.mlir")
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen.py"), "pipeline", str(n), path], check=True)
        rows = {"pipe": [], "plain": [], "ref": []}
        for _ in range(a.runs):
            rows["pipe"].append(measure([OURS, path, "-o", "/dev/null"] + PIPELINE))
            rows["plain"].append(measure([OURS, path, "-o", "/dev/null"]))
            rows["ref"].append(measure([MLIR, "--mlir-disable-threading", "--allow-unregistered-dialect", path, "-o",
                                        "/dev/null", "-one-shot-bufferize=allow-unknown-ops", "-canonicalize", "-cse"]))
        pt = statistics.median(r[0] for r in rows["pipe"])
        pm = max(r[1] for r in rows["pipe"])
        lt = statistics.median(r[0] for r in rows["plain"])
        rt = statistics.median(r[0] for r in rows["ref"])
        rm = max(r[1] for r in rows["ref"])
        per_op = pt / n * 1e6
        base = base or per_op
        print(f"{n:>7} | {pt:>10.3f} {per_op:>6.2f} {per_op / base:>6.2f} {pm:>5.0f} | {lt:>13.3f} | "
              f"{rt:>14.3f} {rt / n * 1e6:>6.2f} {rm:>5.0f} | {pt / rt:>5.2f} {pm / rm:>5.2f}", flush=True)


if __name__ == "__main__":
    main()
