#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit tests, the lit suite (in-process
# FileCheck, then cross-checked with LLVM's FileCheck), and the differential
# tests against upstream mlir-opt. Installs the LLVM/MLIR 22 oracles if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

LLVM_BIN=/usr/lib/llvm-22/bin
if [ ! -x "$LLVM_BIN/mlir-opt" ] || [ ! -x "$LLVM_BIN/FileCheck" ] || [ ! -x "$LLVM_BIN/clang" ]; then
  echo "== installing llvm-22-tools, mlir-22-tools and clang-22 (test oracles, host compile path)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq llvm-22-tools mlir-22-tools clang-22 >/dev/null
fi
if ! command -v cc >/dev/null || ! command -v c++ >/dev/null; then
  echo "== installing gcc and g++ (the CPU twin compiles implementations with cc/c++)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq gcc g++ >/dev/null
fi
command -v c++ >/dev/null || { echo "error: no C++ compiler (c++) after install" >&2; exit 1; }
for tool in mlir-opt mlir-translate FileCheck clang; do
  [ -x "$LLVM_BIN/$tool" ] || { echo "error: $LLVM_BIN/$tool is missing after install" >&2; exit 1; }
done

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test (unit tests, lit suite with in-process FileCheck, differential vs mlir-opt)"
HIVM_REQUIRE_MLIR_OPT=1 MLIR_OPT="$LLVM_BIN/mlir-opt" cargo test --workspace
echo "== lit suite cross-checked with LLVM FileCheck"
HIVM_REQUIRE_MLIR_OPT=1 HIVM_FILECHECK="$LLVM_BIN/FileCheck" cargo test -p hivm-cli --test lit
echo "== Python package: pip install . into a venv (target/pyvenv, or \$HIVM_TEST_VENV), then pytest"
# The Triton tests need Triton's interpreter and torch (the index's torch is the CUDA
# build: a ~2.7 GB download, ~5.5 GB venv; it runs on the CPU). target/pyvenv is made
# afresh whenever this list changes. HIVM_TEST_VENV=/path/to/venv uses a venv of your own
# instead (it must have these packages; nothing is installed into it but hivm itself).
PY_DEPS="maturin numpy pytest triton==3.9.0 torch==2.15.0"
VENV=${HIVM_TEST_VENV:-target/pyvenv}
if [ -n "${HIVM_TEST_VENV:-}" ]; then
  "$VENV/bin/python" -c "import maturin, numpy, pytest, triton, torch" ||
    { echo "error: HIVM_TEST_VENV=$VENV lacks one of: $PY_DEPS" >&2; exit 1; }
elif [ "$(cat "$VENV/.deps" 2>/dev/null)" != "$PY_DEPS" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  # torch is a 2.7 GB download: a broken transfer shows as a hash mismatch, so retry
  # (without the cache, which may hold the broken file) before failing.
  for attempt in 1 2 3; do
    if [ "$attempt" = 1 ]; then cache=""; else cache="--no-cache-dir"; fi
    if "$VENV/bin/pip" install -q $cache $PY_DEPS; then break; fi
    if [ "$attempt" = 3 ]; then echo "pip install failed 3 times" >&2; exit 1; fi
    echo "pip install failed (attempt $attempt); retrying" >&2
  done
  echo "$PY_DEPS" > "$VENV/.deps"
fi
# A debug build reuses what cargo test built; the wheel is the same abi3 module.
MATURIN_PEP517_ARGS="--profile dev" "$VENV/bin/pip" install -q --force-reinstall --no-deps .
HIVM_RUN="$PWD/target/debug/hivm-run" "$VENV/bin/python" -m pytest -q python/tests
