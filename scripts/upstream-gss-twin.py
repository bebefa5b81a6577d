#!/usr/bin/env python3
"""AscendNPU-IR's sync-solver test kernels (`hivm-gss*.mlir`) solved by hivm-opt and run in the twin.

    python3 scripts/upstream-gss-twin.py <AscendNPU-IR git dir> [--rev HEAD] [--opt target/debug/hivm-opt]
        [--run target/debug/hivm-run] [--int 64,16,2] [--no-mutate] [--cube-only] [-v] [FILE ...]

Reads each test file at REV with git (nothing is copied into this repository). Each `// -----` case
is solved as its solver RUN lines solve it (`bishengir-opt` replaced by hivm-opt, without FileCheck;
`hivm-inject-sync` lines are skipped), then every function with a body is run by hivm-run with
arguments made from its signature: every combination of true/false for up to three i1 arguments;
for integers the first value of --int (64, 16, 2) the kernel can be given data with (larger values
run more loop iterations); zeros for memrefs (a dynamic size gets 2^20 elements, or 1024 if the
kernel cannot be given that), but integer
arrays, whose element i is i + 1 times the integers' value (lengths, and starts that differ by it).

A kernel that runs clean is then cut: each set_flag, wait_flag and pipe_barrier removed alone, and
each set_flag with the next wait_flag of its flag at the same depth removed together. Each cut
kernel must make the twin report something (a race, a hang, a leftover flag): a cut nobody notices
is listed as UNNOTICED. Cuts of flags the clean run never reached (by its --trace) and of the
entry's closing pipe_barrier[<PIPE_ALL>] are counted apart. Prints one line per kernel and the totals.
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit_source import git_show, run_lines  # noqa: E402

DIR = "bishengir/test/Dialect/HIVM/SyncSolver"
SPLIT = "// -----"
DYN = 1 << 20
INT = 2
CUBE = re.compile(r"mmad|nd2nz|fixpipe|address_space<(cbuf|ca|cb|cc)>|matmul")
FLAG = re.compile(r"^\s*hivm\.hir\.(set_flag|wait_flag|pipe_barrier)\b")


def git_ls(gitdir, rev):
    r = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", rev, DIR],
                       capture_output=True, text=True, check=True)
    return sorted(p for p in r.stdout.split() if os.path.basename(p).startswith("hivm-gss") and p.endswith(".mlir"))


def signature(text, name):
    """The argument types of function `name`, split at top-level commas."""
    m = re.search(rf"func\.func\s+(?:private\s+)?@{re.escape(name)}\(", text)
    i, depth, cur, out = m.end(), 1, "", []
    while depth:
        c = text[i]
        i += 1
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if depth == 0 or (c == "," and depth == 1):
            if cur.strip():
                out.append(cur.strip())
            cur = ""
        else:
            cur += c
    # "%arg0: TYPE {attrs}" -> TYPE
    types = []
    for a in out:
        t = a.split(":", 1)[1].strip() if ":" in a else a
        t = re.sub(r"\s*\{.*\}$", "", t)
        types.append(t)
    return types


NPY = {}


def npy_file(elem, dims, value):
    """A .npy file of `dims` elements of `elem`, (i + 1) * `value` (written once, by scripts/npy.py)."""
    key = (elem, tuple(dims), value)
    if key not in NPY:
        path = os.path.join(tempfile.gettempdir(), f"gss-twin-{os.getpid()}-{len(NPY)}.npy")
        # Wrapping below the type's largest value (a multiple of `value`, so starts still differ by it).
        top = max(value, ({"i16": 1 << 14, "i32": 1 << 30}.get(elem, 1 << 40) // value) * value)
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "npy.py"), path,
                        elem, "x".join(dims), f"range:{value}:{value}:{top}"], check=True)
        NPY[key] = path
    return NPY[key]


def arg_choices(types):
    """Lists of --arg values to run with, or a reason there are none."""
    fixed, bools = [], []
    for i, t in enumerate(types):
        if t.startswith("memref<"):
            m = re.match(r"memref<((?:[\d?]+x)*)(\w+)", t)
            if not m:
                return None, f"argument {i}: {t}"
            dims = [d for d in m.group(1).split("x") if d]
            dims = [str(DYN) if d == "?" else d for d in dims] or ["1"]
            elem = m.group(2)
            if elem in ("i16", "i32", "i64"):
                # Integer arrays hold lengths and start offsets (of a batch, a sequence):
                # element i is (i + 1) times the integer arguments' value, so that lengths
                # and differences of starts are that value and the loops they bound run.
                fixed.append(npy_file(elem, dims, INT))
            else:
                fixed.append(f"zeros:{'x'.join(dims)}x{elem}")
        elif t == "i1":
            fixed.append(None)
            bools.append(i)
        elif re.fullmatch(r"i\d+|index|si\d+|ui\d+", t):
            fixed.append(str(INT))
        elif re.fullmatch(r"f16|bf16|f32|f64", t):
            fixed.append("1.0")
        else:
            return None, f"argument {i}: {t}"
    runs = []
    for combo in itertools.product(["1", "0"], repeat=min(len(bools), 3)):
        a = list(fixed)
        for k, i in enumerate(bools):
            a[i] = combo[k] if k < len(combo) else "1"
        runs.append(a)
    return runs, None


def executed_lines(run, path, entry, choices, alone):
    """The line numbers of the ops the clean kernel ran (by its --trace), over all argument choices."""
    lines = set()
    for args in choices:
        cmd = [run, path, "--entry", entry, "--trace", "--timeout", "20", "--max-ops", "5000000"]
        cmd += (["--part-alone"] if alone else []) + [x for a in args for x in ("--arg", a)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        lines |= {int(m.group(1)) for m in re.finditer(r"^block \d+\s+\S+\s+\S+?:(\d+):\d+ ", r.stderr, re.M)}
    return lines


def hivm_run(run, path, entry, args, alone, timeout=120):
    cmd = [run, path, "--entry", entry, "--timeout", "20", "--max-ops", "5000000"] + (["--part-alone"] if alone else [])
    for a in args:
        cmd += ["--arg", a]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    out = r.stdout + r.stderr
    # The warnings --part-alone gives for each cross-core handshake are not findings.
    warnings = [l for l in out.splitlines() if "warning:" in l and "runs alone (part-alone)" not in l]
    if r.returncode == 0 and not warnings:
        return "ok", out
    return ("reported" if r.returncode in (0, 1) else f"exit {r.returncode}"), out


def first_error(out):
    for line in out.splitlines():
        if ("error:" in line or "warning:" in line) and "(part-alone)" not in line:
            return line.strip()[:220]
    return out.strip().splitlines()[-1][:220] if out.strip() else "(no output)"


def cuts(lines):
    """Line sets to remove: each flag alone, each set with the next wait of its flag at its depth."""
    flags = [(i, FLAG.match(l).group(1), l.strip()) for i, l in enumerate(lines) if FLAG.match(l)]
    out = [[i] for i, _, _ in flags]
    indent = lambda i: len(lines[i]) - len(lines[i].lstrip())  # noqa: E731
    key = lambda s: s[s.index("["):s.index("]") + 1] if "[" in s else s  # noqa: E731
    for i, kind, text in flags:
        if kind != "set_flag":
            continue
        for j, kind2, text2 in flags:
            if j > i and kind2 == "wait_flag" and key(text2) == key(text) and indent(j) == indent(i):
                out.append([i, j])
                break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gitdir")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--opt", default="target/debug/hivm-opt")
    ap.add_argument("--run", default="target/debug/hivm-run")
    ap.add_argument("--no-mutate", action="store_true")
    ap.add_argument("--cube-only", action="store_true")
    ap.add_argument("--int", default="64,16,2",
                    help="values for integer arguments, largest first: each kernel runs with the first it "
                         "can be given data with (default 64,16,2)")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_intermixed_args()
    a.ints = [int(x) for x in a.int.split(",")]
    files = a.files or git_ls(a.gitdir, a.rev)
    totals = {"clean": 0, "reported": 0, "refused": 0, "cuts": 0, "unnoticed": 0, "kernels": 0, "dead": 0}
    tmp = tempfile.mkdtemp(prefix="gss-twin-")
    for path in files:
        if "/" not in path:
            path = f"{DIR}/{path}"
        text = git_show(a.gitdir, a.rev, path)
        runs = [r for r in run_lines(text) if "hivm-graph-sync-solver" in r]
        if not runs:
            continue
        for ci, case in enumerate(text.split(SPLIT)):
            cube = bool(CUBE.search(case))
            if a.cube_only and not cube:
                continue
            names = re.findall(r"func\.func\s+(?:public\s+)?@([\w$.]+)\(", case)
            if not names:
                continue
            src = os.path.join(tmp, "case.mlir")
            if re.search(r"mmadmx|load_scale", case) and "hacc.target" not in case:
                # The MX matmul exists from the 950 generation on; upstream's default target
                # (910B) has none, so such a kernel naming no target is run as a 950.
                case = re.sub(r"^(\s*)module\s*(attributes\s*\{)?", lambda m: m.group(1) + (
                    'module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">, ' if m.group(2)
                    else 'module attributes {hacc.target = #hacc.target<"Ascend950PR_9589">} '), case, count=1, flags=re.M)
            with open(src, "w") as f:
                f.write(case)
            for ri, run in enumerate(runs):
                cmd = run[: run.index("| FileCheck")] if "| FileCheck" in run else run
                cmd = re.sub(r"\bbishengir-opt\b", a.opt, cmd).replace("%s", src)
                r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True)
                label = f"{os.path.basename(path)}#{ci} run{ri + 1}"
                if r.returncode != 0:
                    print(f"{label}: SOLVER FAILED: {first_error(r.stderr)}")
                    continue
                solved = os.path.join(tmp, f"solved{ri}.mlir")
                with open(solved, "w") as f:
                    f.write(r.stdout)
                for name in names:
                    totals["kernels"] += 1
                    kind = "cube" if cube else "vector"
                    # One core's part of a split mix kernel runs alone, its cross-core
                    # handshakes taken as met: only its own pipes are checked.
                    # (hivm-opt prints a function's signature on one line.)
                    head = next(l for l in r.stdout.splitlines() if f"@{name}(" in l and "func.func" in l)
                    alone = bool(re.search(r"func_core_type<(AIC|AIV)>", head))
                    if alone:
                        kind += ", part alone"
                    # The largest integer value the kernel can be given data with (larger
                    # ones run more loop iterations, and may reach past the arrays).
                    global INT, DYN
                    for dyn, value in [(1 << 20, v) for v in a.ints] + [(1024, a.ints[-1])]:
                        INT, DYN = value, dyn
                        choices, why = arg_choices(signature(r.stdout, name))
                        if choices is None:
                            break
                        results = [(args, *hivm_run(a.run, solved, name, args, alone)) for args in choices]
                        bad = [(args, s, o) for args, s, o in results if s != "ok"]
                        refused = False
                        if bad:
                            args, st, o = bad[0]
                            refused = st != "reported" or "error:" in o and not re.search(
                                r"race|hang|never|left|unmatched|waits|deadlock", o)
                        if not refused:
                            break
                    if choices is None:
                        totals["refused"] += 1
                        print(f"{label} @{name} [{kind}]: NO DATA ({why})")
                        continue
                    if bad:
                        totals["refused" if refused else "reported"] += 1
                        print(f"{label} @{name} [{kind}]: {'REFUSED' if refused else 'REPORTED'} "
                              f"({' '.join(args)}): {first_error(o)}")
                        continue
                    kind += f", int {INT}" + (f", dynamic sizes {DYN}" if DYN != 1 << 20 else "")
                    totals["clean"] += 1
                    line = f"{label} @{name} [{kind}]: clean"
                    if not a.no_mutate:
                        lines = r.stdout.split("\n")
                        ran = executed_lines(a.run, solved, name, choices, alone)
                        missed = []
                        n = dead = last = 0
                        for gone in cuts(lines):
                            # A flag the run never reached (a loop of no iterations, a branch not
                            # taken with these arguments) cannot matter to it.
                            if not any(i + 1 in ran for i in gone):
                                dead += 1
                                continue
                            # The device entry's closing barrier orders nothing after it.
                            if len(gone) == 1 and "pipe_barrier[<PIPE_ALL>]" in lines[gone[0]] and \
                                    all(not l.strip() or l.strip().startswith(("return", "}", "func.return"))
                                        for l in lines[gone[0] + 1:gone[0] + 3]):
                                last += 1
                                continue
                            cut = "\n".join(l for i, l in enumerate(lines) if i not in gone)
                            cpath = os.path.join(tmp, "cut.mlir")
                            with open(cpath, "w") as f:
                                f.write(cut)
                            n += 1
                            if all(hivm_run(a.run, cpath, name, args, alone)[0] == "ok" for args in choices):
                                missed.append(" + ".join(lines[i].strip() for i in gone))
                        totals["cuts"] += n
                        totals["unnoticed"] += len(missed)
                        totals["dead"] += dead
                        line += f", {n - len(missed)}/{n} cuts reported"
                        if dead or last:
                            line += f" ({dead} of flags never reached, {last} closing barrier, not counted)"
                        for m in missed:
                            line += f"\n    UNNOTICED: {m}"
                    print(line)
                    if a.v:
                        print(r.stdout)
    print(f"total: {totals['kernels']} kernel runs: {totals['clean']} clean, {totals['reported']} reported, "
          f"{totals['refused']} refused or not given data; cuts {totals['cuts'] - totals['unnoticed']}/"
          f"{totals['cuts']} reported ({totals['dead']} cuts of flags never reached not counted)")
    return 0 if totals["unnoticed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
