#!/usr/bin/env python3
"""The compiled twin mode against the interpreter, and hivm-compile on its own.

1. A launch of the CustomOp document's add test (`triton_custom_add[1, 1, 1](out, a, b, 32)`)
   under `HIVM_TWIN=compile` (the kernel compiled to HIVM once, then run whole on the twin)
   against the same launch under `HIVM_TWIN=1` (Triton's interpreter, the custom op on the twin
   per call). Both warm: the first launch of each is left out; the median of --launches after
   it. Each mode runs in a process of its own (the interpreter is chosen at import), one after
   the other in this run. Goal: compile mode at most a fifth of the interpreter.
2. `hivm-compile` of the document's kernel (examples/custom_add/kernel.mlir) from linalg to
   HIVM after the sync solver, as a process, median wall time over --runs. Goal: at most 10 ms.

Usage: <venv>/bin/python bench/compile_mode.py [--launches 50] [--runs 20] [--hivm-compile PATH]
Use a release build of both the package (`pip install .`) and hivm-compile
(`cargo build --release -p hivm-cli`).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

LAUNCHES = r"""
import json, statistics, sys, time
sys.path.insert(0, {folder!r})
import torch
import test_custom_op as t
a = torch.ones(32, dtype=torch.int32)
b = torch.ones(32, dtype=torch.int32)
out = torch.zeros(32, dtype=torch.int32)
t.triton_custom_add[1, 1, 1](out, a, b, 32)  # the first launch: compiles / loads
times = []
for _ in range({n}):
    out.zero_()
    s = time.perf_counter()
    t.triton_custom_add[1, 1, 1](out, a, b, 32)
    times.append(time.perf_counter() - s)
    assert bool((out == a + b).all())
print(json.dumps(statistics.median(times)))
"""


def launch_median(mode, folder, n):
    env = dict(os.environ, HIVM_TWIN=mode)
    script = LAUNCHES.format(folder=str(folder), n=n)
    r = subprocess.run([sys.executable, "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        sys.exit(f"HIVM_TWIN={mode} failed:\n{r.stdout}{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=50)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--hivm-compile", default=str(ROOT / "target" / "release" / "hivm-compile"))
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for f in ("test_custom_op.py", "add.cpp"):
            (folder / f).write_text((ROOT / "examples" / "triton" / f).read_text())
        interp = launch_median("1", folder, a.launches)
        compiled = launch_median("compile", folder, a.launches)
    print(f"launch of the document's add test, median of {a.launches} warm launches:")
    print(f"  HIVM_TWIN=1 (interpreter)   {interp * 1e3:8.2f} ms")
    print(f"  HIVM_TWIN=compile           {compiled * 1e3:8.2f} ms")
    print(f"  ratio compile/interpreter   {compiled / interp:8.3f}  (goal <= 0.2)")

    kernel = ROOT / "examples" / "custom_add" / "kernel.mlir"
    times = []
    for _ in range(a.runs + 1):
        s = time.perf_counter()
        r = subprocess.run([a.hivm_compile, str(kernel), "-o", os.devnull], capture_output=True, text=True)
        times.append(time.perf_counter() - s)
        if r.returncode != 0:
            sys.exit(f"hivm-compile failed:\n{r.stderr}")
    t = statistics.median(times[1:])
    print(f"hivm-compile examples/custom_add/kernel.mlir (process, median of {a.runs}): {t * 1e3:.2f} ms (goal <= 10)")


if __name__ == "__main__":
    main()
