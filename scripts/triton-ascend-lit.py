#!/usr/bin/env python3
"""triton-ascend's own conversion tests as the outside judge of `triton-to-linalg`.

    python3 scripts/triton-ascend-lit.py <triton-ascend git dir> target/debug/hivm-opt \
        [--rev release/3.2.x] [--filecheck /usr/lib/llvm-22/bin/FileCheck] [--list out.tsv] [-v]

Reads `ascend/test/Conversion/**.mlir` at REV with git (nothing is copied into this repository),
keeps the files whose RUN lines use only `--triton-to-linalg` (with `--split-input-file` or
`--triton-to-annotation` around it) and whose ops all lie in the subset hivm-rs converts, runs each
RUN line with `triton-adapter-opt` replaced by hivm-opt and pipes it to LLVM's FileCheck. Prints
one line per file, then `N passed, M failed` for the subset. A file that fails is listed with the
first CHECK line FileCheck stopped at (`--list` writes them all).

Upstream's current pass adds `parallel_mode` to the kernel's attributes, after `mix_mode`; the
release branch's CHECK lines predate it. A file that fails as written is run again with only that
stale piece of its CHECK lines updated (`mix_mode = "aiv"}` -> `mix_mode = "aiv", parallel_mode =
"simd"}`) and counted apart ("passes with the stale signature line updated").

A file marked `XFAIL: *` (upstream expects its own pass to fail on it) is judged as lit judges it:
it passes when one of its RUN lines fails ("expectedly fails"), and fails if all of them pass.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# The ops a custom-op kernel's TTIR uses (issue "Lowering to MLIR", item 1), plus arith/math/scf.
SUBSET = {
    "tt.func", "tt.return", "tt.get_program_id", "tt.get_num_programs", "tt.make_range", "tt.splat",
    "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.addptr", "tt.load", "tt.store",
    "tt.reduce", "tt.reduce.return", "hivm.hir.custom", "hivm.hir.custom_macro",
    "scf.for", "scf.if", "scf.while", "scf.yield", "scf.condition",
    # Kept as it stands, as upstream's pass does.
    "gpu.barrier",
}
ALLOWED_PREFIXES = ("arith.", "math.")
PASSES = {"--triton-to-linalg", "--triton-to-annotation", "--split-input-file", "-split-input-file"}


def git_show(gitdir, rev, path):
    r = subprocess.run(["git", "--git-dir", gitdir, "show", f"{rev}:{path}"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"cannot read {path} at {rev}: {r.stderr.strip()}")
    return r.stdout


def run_lines(text):
    lines, cur = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    return lines


def ops_used(text):
    """The op names of the input (comments dropped, also at a line's end; `tt.x = ...` in an
    attribute dictionary is an attribute, not an op)."""
    body = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    dialects = "tt|scf|arith|math|hivm\\.hir|ttg|gpu|tensor|linalg|memref|bufferization|func|cf|annotation"
    ops = set(re.findall(rf"(?:^|[\s=])((?:{dialects})\.[a-z_.]+)(?![a-z_.])(?!\s*=)", body, re.M))
    return {o.rstrip(".") for o in ops}


def in_subset(text):
    runs = run_lines(text)
    if not runs:
        return False, "no RUN line"
    for r in runs:
        tool = shlex.split(r.split("|")[0])
        if not tool or tool[0] != "triton-adapter-opt":
            return False, "RUN is not triton-adapter-opt"
        flags = {t.split("=")[0] for t in tool[1:] if t.startswith("-")}
        if not flags <= PASSES or "--triton-to-linalg" not in flags:
            return False, "other passes: " + " ".join(sorted(flags - PASSES))
    outside = sorted(o for o in ops_used(text) if o not in SUBSET and not o.startswith(ALLOWED_PREFIXES))
    if outside:
        return False, "ops outside the subset: " + " ".join(outside)
    return True, ""


def run_file(text, name, opt, filecheck, tmp):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    for r in run_lines(text):
        cmd = r.replace("triton-adapter-opt", f"'{opt}'").replace("%s", f"'{path}'")
        cmd = re.sub(r"(^|\|\s*)FileCheck\b", lambda m: m.group(1) + f"'{filecheck}'", cmd)
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            return p.stderr.strip()
    return None


STALE = [(re.compile(r'mix_mode = "(aiv|mix)"\}'), r'mix_mode = "\1", parallel_mode = "simd"}')]


def updated(text):
    """`text` with the CHECK lines' stale signature piece brought up to date."""
    out = []
    for line in text.splitlines():
        if re.match(r"\s*//\s*[A-Z-]+:", line):
            for pat, rep in STALE:
                line = pat.sub(rep, line)
        out.append(line)
    return "\n".join(out) + "\n"


def first_failure(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()[:200]
    return stderr.splitlines()[0][:200] if stderr else "failed"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gitdir")
    ap.add_argument("opt")
    ap.add_argument("--rev", default="release/3.2.x")
    ap.add_argument("--filecheck", default=shutil.which("FileCheck") or "/usr/lib/llvm-22/bin/FileCheck")
    ap.add_argument("--list", default=None)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    opt = os.path.abspath(a.opt)
    files = subprocess.run(
        ["git", "--git-dir", a.gitdir, "ls-tree", "-r", "--name-only", a.rev, "ascend/test/Conversion/"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    files = [f for f in files if f.endswith(".mlir")]
    passed, stale, xfail, failed, skipped, rows = 0, 0, 0, 0, 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            text = git_show(a.gitdir, a.rev, f)
            ok, why = in_subset(text)
            if not ok:
                skipped += 1
                if a.v:
                    print(f"SKIP {f}: {why}")
                continue
            err = run_file(text, os.path.basename(f), opt, a.filecheck, tmp)
            if re.search(r"//\s*XFAIL:\s*\*", text):
                if err is None:
                    failed += 1
                    rows.append((f, "passes although upstream marks it XFAIL"))
                    print(f"FAIL {f}: passes although upstream marks it XFAIL")
                else:
                    xfail += 1
                    print(f"PASS {f} (expectedly fails: XFAIL as upstream marks it)")
            elif err is None:
                passed += 1
                print(f"PASS {f}")
            elif updated(text) != text and (err2 := run_file(updated(text), os.path.basename(f), opt, a.filecheck, tmp)) is None:
                stale += 1
                print(f"PASS {f} (with the stale signature line updated)")
            else:
                if updated(text) != text:
                    err = err2
                failed += 1
                reason = first_failure(err)
                rows.append((f, reason))
                print(f"FAIL {f}: {reason}")
    if a.list:
        with open(a.list, "w") as out:
            for f, why in rows:
                out.write(f"{f}\t{why}\n")
    print(f"{len(files)} files, {skipped} outside the subset")
    print(f"{passed} pass as written, {stale} pass with the stale signature line updated, {xfail} expectedly fail")
    print(f"{passed + stale + xfail} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
