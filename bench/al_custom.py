#!/usr/bin/env python3
"""Overhead of the Python path, medians of N runs side by side:

1. one `al.custom` call under Triton's interpreter (the twin's build cached): the
   document's custom-add kernel, against the same kernel adding with `a + b`;
2. `hivm.run` in-process against the `hivm-run` command on examples/custom_add.

Run from a venv with hivm, triton and torch installed:
    python3 bench/al_custom.py [--runs 15] [--hivm-run target/debug/hivm-run]
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
os.environ.setdefault("TRITON_INTERPRET", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import hivm  # noqa: E402
import hivm.al as al  # noqa: E402


@al.register_custom_op
class bench_add:
    core, pipe, mode = al.CORE.VECTOR, al.PIPE.PIPE_V, al.MODE.SIMD

    def __init__(self, a, b, out=None):
        self.symbol = "custom_add_" + str(a.dtype)
        self.bitcode = "add.bc"


@triton.jit
def with_custom(o, x, y, L: tl.constexpr):
    i = tl.arange(0, L)
    a = tl.load(x + i)
    b = tl.load(y + i)
    r = al.custom("bench_add", a, b, out=tl.full([L], 0, a.dtype))
    tl.store(o + i, r)


@triton.jit
def plain(o, x, y, L: tl.constexpr):
    i = tl.arange(0, L)
    tl.store(o + i, tl.load(x + i) + tl.load(y + i))


def median_time(fn, runs):
    fn()  # warm: builds, caches, imports
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    # The wheel scripts/test.sh installs is a dev build: compare it with the debug command.
    ap.add_argument("--hivm-run", default=str(ROOT / "target" / "debug" / "hivm-run"))
    a = ap.parse_args()

    os.chdir(ROOT / "examples" / "triton")

    x = torch.arange(32, dtype=torch.int32)
    y = torch.ones(32, dtype=torch.int32)
    o = torch.zeros(32, dtype=torch.int32)
    t_custom = median_time(lambda: with_custom[(1,)](o, x, y, 32), a.runs)
    assert torch.equal(o, x + y)
    t_plain = median_time(lambda: plain[(1,)](o, x, y, 32), a.runs)
    print(f"interpreter launch with al.custom: {t_custom * 1e3:8.2f} ms")
    print(f"interpreter launch with a + b:     {t_plain * 1e3:8.2f} ms")
    print(f"al.custom overhead per call:       {(t_custom - t_plain) * 1e3:8.2f} ms")

    kernel = ROOT / "examples" / "custom_add" / "kernel.mlir"
    an = np.load(ROOT / "examples" / "custom_add" / "a.npy")
    bn = np.load(ROOT / "examples" / "custom_add" / "b.npy")

    def in_process():
        out = np.zeros(32, np.int32)
        hivm.run(kernel, [np.zeros(1, np.int8), np.zeros(1, np.int8), out, an, bn, 1, 1, 1, 0, 0, 0])

    cmd = [a.hivm_run, str(kernel), "--arg", "zeros:1xi8", "--arg", "zeros:1xi8", "--arg", "zeros:32xi32"]
    cmd += ["--arg", str(ROOT / "examples/custom_add/a.npy"), "--arg", str(ROOT / "examples/custom_add/b.npy")]
    cmd += [x for v in ("1", "1", "1", "0", "0", "0") for x in ("--arg", v)]

    t_in = median_time(in_process, a.runs)
    t_cmd = median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), a.runs)
    # The twin forks for each implementation call, and forking a process that has torch
    # loaded costs far more: measure hivm.run also in a process with only numpy.
    probe = (
        "import time,statistics,numpy as np,hivm\n"
        f"k={str(kernel)!r}; an=np.load({str(ROOT / 'examples/custom_add/a.npy')!r}); "
        f"bn=np.load({str(ROOT / 'examples/custom_add/b.npy')!r})\n"
        "def f():\n out=np.zeros(32,np.int32); "
        "hivm.run(k,[np.zeros(1,np.int8),np.zeros(1,np.int8),out,an,bn,1,1,1,0,0,0])\n"
        f"f(); ts=[]\nfor _ in range({a.runs}):\n t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)\n"
        "print(statistics.median(ts))"
    )
    t_lean = float(subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout)
    print(f"hivm.run (in-process, torch loaded): {t_in * 1e3:6.2f} ms")
    print(f"hivm.run (in-process, numpy only):   {t_lean * 1e3:6.2f} ms")
    print(f"hivm-run (command):                {t_cmd * 1e3:8.2f} ms")
    print(f"ratio hivm.run / hivm-run:         {t_in / t_cmd:8.2f} (torch loaded), {t_lean / t_cmd:.2f} (numpy only)")


if __name__ == "__main__":
    sys.exit(main())
