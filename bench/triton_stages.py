#!/usr/bin/env python3
"""What the linalg stage adds to Triton's own front end: `hivm.triton.compile(stage="ttir")`
against `stage="linalg"` (the same plus `triton-to-linalg`) on the kernels of the linalg-stage
suite (python/tests/test_triton_linalg.py), measured side by side in one run: per kernel the
median of --runs alternating compiles of each stage, then the median over kernels of the
ratio linalg/ttir (goal: at most 1.2).

Usage: <venv>/bin/python bench/triton_stages.py [--runs 7]
Run it with the package installed from a release build (`pip install .`); a debug build only
makes the linalg stage dearer, so its ratio is an upper bound.
"""
import argparse
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    import hivm.triton
    import test_triton_linalg as suite

    ratios = []
    print(f"{'kernel':<16} {'ttir ms':>9} {'linalg ms':>10} {'ratio':>7}")
    for name, kernel, grid, args, constexprs, outs, refs in suite.CASES:
        jit = hivm.triton._jit_function(kernel)
        sig = hivm.triton._signature_of(jit, args, constexprs)
        hivm.triton.compile(kernel, sig, constexprs, stage="linalg")  # warm: imports, native module
        times = {"ttir": [], "linalg": []}
        for _ in range(a.runs):
            for stage in ("ttir", "linalg"):
                t = time.perf_counter()
                hivm.triton.compile(kernel, sig, constexprs, stage=stage)
                times[stage].append(time.perf_counter() - t)
        t0, t1 = statistics.median(times["ttir"]), statistics.median(times["linalg"])
        ratios.append(t1 / t0)
        print(f"{name:<16} {t0 * 1e3:9.2f} {t1 * 1e3:10.2f} {t1 / t0:7.3f}")
    print(f"median ratio linalg/ttir over {len(ratios)} kernels: {statistics.median(ratios):.3f} (goal <= 1.2)")


if __name__ == "__main__":
    main()
