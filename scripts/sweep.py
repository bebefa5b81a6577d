#!/usr/bin/env python3
"""Which upstream AscendNPU-IR test inputs hivm-opt accepts, with no pass run.

Each `.mlir` file under SUBDIR is run through `hivm-opt` with the flags its RUN lines give
(-split-input-file, -verify-diagnostics, --allow-unregistered-dialect). A file whose RUN lines run passes may expect diagnostics that only
those passes emit; a sweep that runs no pass cannot produce them, so such a file would fail however well
its input parses. This sweep finds where upstream emits each expected diagnostic (its text in
`bishengir/lib` or `bishengir/include`): when every place is a pass (`Transforms/`, `Conversion/`,
`Pipelines/`, `TransformOps/`, `Analysis/` — not `IR/`), the expectation is set aside (the comment blanked,
lines kept) and the file run again, so the input must still parse, verify and produce every other expected
diagnostic. An expectation found nowhere, or in an `IR/` directory, always stays.

Usage: sweep.py UPSTREAM_GIT_DIR HIVM_OPT SUBDIR [--list FAILS_FILE] [--explain]
Prints 'N of M parse as written; K of M parse with pass diagnostics set aside' last.
"""
import os
import re
import subprocess
import sys
import tempfile

EXPECT = re.compile(r"//\s*expected-(error|warning|remark|note)\s*(@[^\s{]*)?\s*\{\{(.*?)\}\}")
PASS_DIRS = ("/Transforms/", "/Conversion/", "/Pipelines/", "/TransformOps/", "/Analysis/")


def git(up, *args):
    return subprocess.run(["git", "-C", up, *args], capture_output=True, text=True).stdout


def fragments(message):
    """Literal pieces of a diagnostic long enough to find in C++ source."""
    message = re.sub(r"^'[\w.]+' op ", "", message)
    # Numbers, names and quoted operands are usually streamed in, not literal.
    pieces = re.split(r"\d+|'[^']*'|`[^`]*`|@\w+|%\w+|\{\{.*?\}\}|\"", message)
    pieces = [p.strip(" :,!.()") for p in pieces]
    whole = sorted((p for p in pieces if len(p) >= 10), key=len, reverse=True)
    # C++ often splits a long message over several string literals; clauses
    # and runs of four words are likelier to sit inside one of them.
    clauses = [c.strip() for p in whole for c in re.split(r"[;:,=]|\. ", p)]
    words = [" ".join(w[i:i + 4]) for p in whole[:1] for w in [p.split()] for i in range(0, max(len(w) - 3, 1), 2)]
    seen, out = set(), []
    for c in whole + clauses + words:
        if len(c) >= 10 and c not in seen:
            seen.add(c)
            out.append(c)
    return out


def origin(up, message, cache):
    """'pass' when upstream emits this text only from passes, else 'other'."""
    if message in cache:
        return cache[message]
    where = "other"
    for frag in fragments(message)[:12]:
        hits = git(up, "grep", "-l", "-F", frag, "HEAD", "--", "bishengir/lib", "bishengir/include").split()
        hits = [h for h in hits if h.endswith((".cpp", ".h", ".td"))]
        if hits:
            where = "pass" if all(any(d in h for d in PASS_DIRS) for h in hits) else "other"
            break
    cache[message] = where
    return where


def run(opt, flags, path):
    try:
        r = subprocess.run([opt, *flags, path, "-o", os.devnull], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    ok = r.returncode == 0 and "panicked" not in r.stderr
    return ok, (r.stderr.strip().splitlines() or ["?"])[0]


def main():
    up, opt, sub = sys.argv[1:4]
    explain = "--explain" in sys.argv
    names = [n for n in git(up, "ls-tree", "-r", "--name-only", "HEAD", sub).split() if n.endswith(".mlir")]
    as_written, aside, fails, cache = 0, 0, [], {}
    with tempfile.TemporaryDirectory() as d:
        for n in names:
            text = git(up, "show", "HEAD:" + n)
            runs = " ".join(re.findall(r"//\s*RUN:(.*)", text))
            flags = [f for f, key in (("-split-input-file", "split-input-file"),
                                      ("-verify-diagnostics", "verify-diagnostics"),
                                      ("--allow-unregistered-dialect", "allow-unregistered-dialect")) if key in runs]
            path = os.path.join(d, os.path.basename(n))
            open(path, "w").write(text)
            ok, err = run(opt, flags, path)
            if ok:
                as_written += 1
                aside += 1
                continue
            set_aside = []
            if "-verify-diagnostics" in flags:
                def blank(m):
                    if origin(up, m.group(3), cache) == "pass":
                        set_aside.append(m.group(3))
                        return "//"
                    return m.group(0)
                stripped = EXPECT.sub(blank, text)
                if set_aside:
                    open(path, "w").write(stripped)
                    ok, err = run(opt, flags, path)
            if ok:
                aside += 1
                if explain:
                    print(f"{n}: set aside {len(set_aside)} pass diagnostic(s): " + "; ".join(set_aside)[:300])
            else:
                fails.append(f"{n}\t{err[:200]}")
    if "--list" in sys.argv:
        open(sys.argv[sys.argv.index("--list") + 1], "w").write("\n".join(fails) + "\n")
    print(f"{as_written} of {len(names)} parse as written; {aside} of {len(names)} parse with pass diagnostics set aside")


if __name__ == "__main__":
    main()
