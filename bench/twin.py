#!/usr/bin/env python3
"""CPU-twin benchmarks, each against native code doing the same work,
measured side by side in one run (medians of --runs):

1. the twin header's emulated vadd over 16M float elements (counter mask,
   one call) against a native C loop, in one process;
2. hivm-run's interpreter on a scalar loop of 1M ops against the same loop
   compiled natively (per-op cost; hivm-run's start-up, measured on an
   empty kernel, is subtracted);
3. one custom-op call (a no-op implementation, its build cached): a loop of
   --calls calls against the same loop with none, per call, against what
   isolation by a fork per call costs at the least (fork + _exit + waitpid
   of a small C process, bench/twin_fork.c);
4. `--blocks N` growth: the custom-add example (a builtin custom op per
   block) run with 100, 1000 and 4000 blocks; time per block must stay flat.

Usage: bench/twin.py [--runs 5] [--elements 16777216] [--ops 1000000] [--calls 20000]
Needs a release build (cargo build --release -p hivm-cli) and cc/c++.
"""
import argparse, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "target", "release", "hivm-run")
HEADER = os.path.join(ROOT, "crates", "twin", "include", "hivm_twin.h")
RT = os.path.join(ROOT, "crates", "twin", "include", "hivm_twin_rt.c")

LOOP = """func.func @loop(%out: memref<1xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %three = arith.constant 3 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
    %ii = arith.index_cast %i : index to i64
    %m = arith.muli %ii, %three : i64
    %a = arith.addi %acc, %m : i64
    scf.yield %a : i64
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}
"""
OPS_PER_ITER = 4  # index_cast, muli, addi, yield

CALLS = """func.func @calls(%m: memref<64xf32>, %n: index) attributes {hacc.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "noop"} "noop" outs(%m : memref<64xf32>)
  }
  return
}
"""

# The same op on a UB output, with a live UB buffer it is not passed on the
# same page and UB pages it must not write (read-only in the call worker).
CALLS_UB = """func.func @calls(%m: memref<64xf32>, %n: index) attributes {hacc.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %keep = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "noop"} "noop" outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
  }
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.store ins(%keep : memref<64xf32, #hivm.address_space<ub>>) outs(%m : memref<64xf32>)
  return
}
"""


def sh(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{p.stderr}")
    return p.stdout


def timed(cmd):
    t0 = time.perf_counter()
    out = sh(cmd)
    return time.perf_counter() - t0, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--elements", type=int, default=16 << 20)
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--calls", type=int, default=20_000)
    ap.add_argument("--workdir", default="/tmp/hivm-bench-twin")
    a = ap.parse_args()
    if not os.path.exists(RUN):
        sys.exit(f"missing {RUN} (cargo build --release -p hivm-cli)")
    os.makedirs(a.workdir, exist_ok=True)
    vadd = os.path.join(a.workdir, "twin_vadd")
    sh(["c++", "-std=c++17", "-O2", "-Wno-attributes", "-include", HEADER,
        os.path.join(ROOT, "bench", "twin_vadd.cpp"), RT, "-o", vadd])
    loop_bin = os.path.join(a.workdir, "twin_loop")
    sh(["cc", "-O2", os.path.join(ROOT, "bench", "twin_loop.c"), "-o", loop_bin])
    fork_bin = os.path.join(a.workdir, "twin_fork")
    sh(["cc", "-O2", os.path.join(ROOT, "bench", "twin_fork.c"), "-o", fork_bin])

    native, emulated, records = sh([vadd, str(a.elements), str(a.runs)]).split()
    native, emulated = float(native), float(emulated)
    print(f"vadd, {a.elements} f32 elements (median of {a.runs}):")
    print(f"  native C loop   {native * 1e3:8.2f} ms  ({native / a.elements * 1e9:.3f} ns/element)")
    print(f"  twin vadd       {emulated * 1e3:8.2f} ms  ({emulated / a.elements * 1e9:.3f} ns/element, "
          f"{records} trace records)")
    print(f"  ratio twin/native: {emulated / native:.2f}x (target <= 3x)")

    iters = a.ops // OPS_PER_ITER
    kernel = os.path.join(a.workdir, "loop.mlir")
    with open(kernel, "w") as f:
        f.write(LOOP)
    empty = ["--arg", "zeros:1xi64", "--arg", "0"]
    full = ["--arg", "zeros:1xi64", "--arg", str(iters)]
    t_empty, t_full, t_native = [], [], []
    for _ in range(a.runs):
        t_empty.append(timed([RUN, kernel] + empty)[0])
        t_full.append(timed([RUN, kernel] + full + ["--print", "0"])[0])
        t_native.append(float(sh([loop_bin, str(iters)]).split()[0]))
    interp = statistics.median(t_full) - statistics.median(t_empty)
    nat = statistics.median(t_native)
    ops = iters * OPS_PER_ITER
    print(f"scalar loop, {iters} iterations = {ops} ops (median of {a.runs}):")
    print(f"  native C loop   {nat * 1e3:8.3f} ms  ({nat / ops * 1e9:.3f} ns/op)")
    print(f"  hivm-run        {interp * 1e3:8.2f} ms  ({interp / ops * 1e9:.1f} ns/op; start-up "
          f"{statistics.median(t_empty) * 1e3:.1f} ms excluded)")
    print(f"  ratio interpreter/native: {interp / nat:.0f}x")

    kernel = os.path.join(a.workdir, "calls.mlir")
    with open(kernel, "w") as f:
        f.write(CALLS)
    impl = ["--impl", os.path.join(ROOT, "bench", "twin_noop.cpp"), "--arg", "zeros:64xf32", "--arg"]
    sh([RUN, kernel] + impl + ["1"])  # builds the implementation into the cache
    t_none, t_calls, t_fork = [], [], []
    for _ in range(a.runs):
        t_none.append(timed([RUN, kernel] + impl + ["0"])[0])
        t_calls.append(timed([RUN, kernel] + impl + [str(a.calls)])[0])
        t_fork.append(float(sh([fork_bin, "2000"]).split()[0]))
    per_call = (statistics.median(t_calls) - statistics.median(t_none)) / a.calls
    fork = statistics.median(t_fork)
    print(f"custom-op call, {a.calls} calls of a no-op implementation (median of {a.runs}):")
    print(f"  hivm-run        {per_call * 1e6:8.2f} us/call (target <= 10 us)")
    print(f"  fork per call   {fork * 1e6:8.2f} us/call at the least (C: fork + _exit + waitpid)")
    print(f"  ratio call/fork: {per_call / fork:.3f}x")
    with open(kernel, "w") as f:
        f.write(CALLS_UB)
    sh([RUN, kernel] + impl + ["1"])
    t_none, t_calls = [], []
    for _ in range(a.runs):
        t_none.append(timed([RUN, kernel] + impl + ["0"])[0])
        t_calls.append(timed([RUN, kernel] + impl + [str(a.calls)])[0])
    per_call = (statistics.median(t_calls) - statistics.median(t_none)) / a.calls
    print(f"  on a UB output, beside a live UB buffer: {per_call * 1e6:6.2f} us/call (target <= 10 us)")

    ex = os.path.join(ROOT, "examples", "custom_add")
    add = [os.path.join(ex, "kernel.mlir"), "--arg", "zeros:1xi8", "--arg", "zeros:1xi8", "--arg", "zeros:32xi32",
           "--arg", os.path.join(ex, "a.npy"), "--arg", os.path.join(ex, "b.npy")]

    def grid(n):
        # The kernel's program-count arguments must describe the N-block launch.
        return ["--arg", str(n), "--arg", "1", "--arg", "1"] + ["--arg", "0"] * 3 + ["--blocks", str(n)]

    blocks = [1, 100, 1000, 4000]
    times = {n: [] for n in blocks}
    for _ in range(a.runs):
        for n in blocks:
            times[n].append(timed([RUN] + add + grid(n))[0])
    base = statistics.median(times[1])
    print(f"--blocks growth, custom-add example (median of {a.runs}; one block's run {base * 1e3:.1f} ms excluded):")
    first = None
    for n in blocks[1:]:
        per = (statistics.median(times[n]) - base) / (n - 1)
        first = first or per
        print(f"  {n:>5} blocks  {statistics.median(times[n]) * 1e3:8.1f} ms  ({per * 1e6:6.1f} us/block, "
              f"growth {per / first:.2f})")


main()
