#!/usr/bin/env python3
"""AscendNPU-IR's own lit tests run against hivm-opt, per file and per `// -----` case.

    python3 scripts/upstream-lit.py <AscendNPU-IR git dir> [--rev HEAD] [--opt target/debug/hivm-opt]
        [--filecheck /usr/lib/llvm-22/bin/FileCheck] [--set compile-path | FILE ...] [-v]

Reads each test file at REV with git (nothing is copied into this repository). Every RUN line is
run by bash with `bishengir-opt` replaced by hivm-opt, `%s` by the test text and `FileCheck` by
LLVM's. A file passes when all its RUN lines do. For files split with `-split-input-file` each
case is also run alone: its own text at its own line numbers (blank lines stand for the rest, so
`[[@LINE]]` and diagnostics keep their numbers), the CHECK lines of that case only. A case without
CHECK lines of a RUN line's prefix (a RUN header, a diagnostics-only case) runs that line without
FileCheck, so its exit status and `-verify-diagnostics` still judge it. Prints one line per file
with its case count and the failing cases, then the totals.

`--set compile-path` is the files the Triton compile path is judged by (bishengir-compile's front
half: HFusion conversions, HIVM conversions, the HIVM passes before bufferization).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit_source import git_show, run_lines  # noqa: E402

SETS = {
    "compile-path": [
        "bishengir/test/Conversion/ArithToHFusion/arith-to-hfusion.mlir",
        "bishengir/test/Conversion/MathToHFusion/math-to-hfusion.mlir",
        "bishengir/test/Conversion/LinalgToHFusion",
        "bishengir/test/Conversion/TensorToHIVM/tensor-to-hivm.mlir",
        "bishengir/test/Conversion/HFusionToHIVM/hfusion-to-hivm.mlir",
        "bishengir/test/Conversion/HFusionToHIVM/reduction.mlir",
        "bishengir/test/Dialect/HIVM/convert-to-hivm-op.mlir",
        "bishengir/test/Dialect/HIVM/triton-global-kernel-args-to-hivm-op.mlir",
        "bishengir/test/Dialect/HIVM/expose-memref-write-to-tensor.mlir",
        "bishengir/test/Dialect/HFusion/hfusion-adapt-triton-kernel.mlir",
    ],
}

SPLIT = "// -----"


def git_ls(gitdir, rev, path):
    r = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", rev, path], capture_output=True, text=True)
    return [p for p in r.stdout.split() if p.endswith(".mlir")]


def prefixes(run):
    """The check prefixes FileCheck is given on a RUN line (CHECK by default)."""
    if "FileCheck" not in run:
        return []
    tail = run[run.index("FileCheck"):]
    found = []
    for m in re.finditer(r"--?check-prefix(?:es)?[= ](\S+)", tail):
        found += m.group(1).split(",")
    return found or ["CHECK"]


def has_checks(text, prefix):
    return re.search(rf"\b{re.escape(prefix)}(-NEXT|-SAME|-NOT|-LABEL|-DAG|-EMPTY|-COUNT-\d+)?:", text) is not None


def run_one(run, path, opt, filecheck, drop_filecheck):
    cmd = run
    if drop_filecheck and "| FileCheck" in cmd:
        cmd = cmd[: cmd.index("| FileCheck")]
    cmd = re.sub(r"\bbishengir-opt\b", opt, cmd).replace("%s", path)
    cmd = re.sub(r"(?<![\w/-])FileCheck\b", filecheck, cmd)
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=600)
    return r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]


def cases(text):
    """Each case's text at its own line numbers (other cases blanked)."""
    lines = text.split("\n")
    bounds, start = [], 0
    for i, line in enumerate(lines):
        if line.startswith(SPLIT):
            bounds.append((start, i))
            start = i + 1
    bounds.append((start, len(lines)))
    out = []
    for a, b in bounds:
        kept = ["" for _ in lines]
        for i in range(a, b):
            kept[i] = lines[i]
        out.append("\n".join(kept))
    return out


def judge(text, runs, opt, filecheck, tmp, name, verbose):
    path = f"{tmp}/{name}"
    with open(path, "w") as f:
        f.write(text)
    for run in runs:
        drop = any(not has_checks(text, p) for p in prefixes(run))
        ok, out = run_one(run, path, opt, filecheck, drop)
        if not ok:
            if verbose:
                print(f"    RUN: {run}\n" + "\n".join("      " + l for l in out.splitlines()[-12:]))
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gitdir")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--opt", default="target/debug/hivm-opt")
    ap.add_argument("--filecheck", default=shutil.which("FileCheck") or "/usr/lib/llvm-22/bin/FileCheck")
    ap.add_argument("--set", choices=sorted(SETS))
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_intermixed_args()
    files = list(a.files) + (SETS[a.set] if a.set else [])
    if not files:
        sys.exit("no test files: give paths (a folder takes its .mlir files) or --set")
    expanded = []
    for f in files:
        expanded += [f] if f.endswith(".mlir") else git_ls(a.gitdir, a.rev, f)
    totals = [0, 0, 0, 0]  # files passed, files, cases passed, cases
    with tempfile.TemporaryDirectory() as tmp:
        for path in expanded:
            text = git_show(a.gitdir, a.rev, path)
            runs = run_lines(text)
            if not runs:
                print(f"SKIP {path}: no RUN lines")
                continue
            whole = judge(text, runs, a.opt, a.filecheck, tmp, "whole.mlir", a.verbose)
            split = any("split-input-file" in r for r in runs)
            pieces = cases(text) if split else [text]
            failed = []
            for i, piece in enumerate(pieces):
                ok = whole if piece is text else judge(piece, runs, a.opt, a.filecheck, tmp, f"case{i}.mlir", a.verbose)
                if not ok:
                    failed.append(i)
            passed = len(pieces) - len(failed)
            totals[0] += whole
            totals[1] += 1
            totals[2] += passed
            totals[3] += len(pieces)
            note = f" (failing cases: {', '.join(map(str, failed))})" if failed else ""
            print(f"{'PASS' if whole else 'FAIL'} {path}: {passed}/{len(pieces)} cases{note}")
    print(f"files: {totals[0]}/{totals[1]} pass whole; cases: {totals[2]}/{totals[3]} pass alone")


if __name__ == "__main__":
    main()
