"""Reading lit tests from another project's git directory, shared by the scripts that run
upstream's tests against our tools (nothing is copied into this repository)."""
import re
import subprocess


def git_show(gitdir, rev, path):
    """The file at `rev`, read with git."""
    r = subprocess.run(["git", "--git-dir", gitdir, "show", f"{rev}:{path}"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"cannot read {path} at {rev}: {r.stderr.strip()}")
    return r.stdout


def run_lines(text):
    """The RUN lines of a lit test, continuation lines (`\\`) joined."""
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
