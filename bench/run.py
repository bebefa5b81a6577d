#!/usr/bin/env python3
"""Parse + verify + print benchmark: hivm-opt against upstream mlir-opt,
measured side by side in one run (single-threaded, output to /dev/null).

Usage: bench/run.py [--sizes 10000,100000,1000000] [--kinds custom,arith,nested] [--runs 3]
       [--pipeline PIPELINE]  (e.g. --kinds functions --pipeline "builtin.module(func.func(canonicalize,cse))")
Prints a table of median wall time and peak RSS for each tool and the ratios
ours/mlir-opt. Needs a release build (cargo build --release) and mlir-22-tools.
"""
import argparse, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, "target", "release", "hivm-opt")
MLIR = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")


def measure(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if status != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{err}")
    return dt, ru.ru_maxrss / 1024.0  # MiB


def parse_args(sizes, extra=lambda ap: None):
    """The options both benchmarks take; checks the tools and makes the workdir."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default=sizes)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workdir", default="/tmp/hivm-bench")
    extra(ap)
    a = ap.parse_args()
    for tool in (OURS, MLIR):
        if not os.path.exists(tool):
            sys.exit(f"missing {tool} (cargo build --release / apt-get install mlir-22-tools)")
    os.makedirs(a.workdir, exist_ok=True)
    return a


def main():
    def extra(ap):
        ap.add_argument("--kinds", default="custom,arith,nested")
        # A pass pipeline both tools run, e.g. 'builtin.module(func.func(canonicalize,cse))'
        # with --kinds functions (per-function pipelines over many functions).
        ap.add_argument("--pipeline", default=None)
    a = parse_args("10000,100000,1000000", extra)
    print(f"{'kind':8} {'ops':>8} {'MB':>7} | {'mlir-opt s':>10} {'MiB':>7} | {'hivm-opt s':>10} {'MiB':>7} | {'time ratio':>10} {'mem ratio':>9}")
    for kind in a.kinds.split(","):
        for n in [int(s) for s in a.sizes.split(",")]:
            path = os.path.join(a.workdir, f"{kind}-{n}.mlir")
            if not os.path.exists(path):
                subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen.py"), kind, str(n), path], check=True)
            size = os.path.getsize(path) / 1e6
            common = ["--allow-unregistered-dialect", path, "-o", "/dev/null"]
            if a.pipeline:
                common.append(f"--pass-pipeline={a.pipeline}")
            rows = {"mlir": [], "ours": []}
            for _ in range(a.runs):
                # Interleave the tools so machine noise hits both alike.
                rows["mlir"].append(measure([MLIR, "--mlir-disable-threading", "--mlir-print-op-generic"] + common))
                rows["ours"].append(measure([OURS, "--mlir-print-op-generic"] + common))
            mt = statistics.median(r[0] for r in rows["mlir"])
            mm = max(r[1] for r in rows["mlir"])
            ot = statistics.median(r[0] for r in rows["ours"])
            om = max(r[1] for r in rows["ours"])
            print(f"{kind:8} {n:>8} {size:>7.1f} | {mt:>10.3f} {mm:>7.0f} | {ot:>10.3f} {om:>7.0f} | {ot / mt:>10.2f} {om / mm:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
