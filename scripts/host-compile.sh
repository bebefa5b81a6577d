#!/usr/bin/env bash
# Compiles a kernel with custom ops into a host shared object, linked with
# the C/C++ implementations of its custom ops (the `_mlir_ciface_` ABI):
#
#   scripts/host-compile.sh KERNEL.mlir IMPL.c [IMPL.cpp ...] -o OUT.so
#
# hivm-opt bufferizes the kernel and lowers custom ops to calls, after
# checking that the implementations define every callee; upstream MLIR 22
# (mlir-22-tools) lowers the result to LLVM IR; clang-22 builds the library.
# Every function of the kernel gets a `_mlir_ciface_<name>` wrapper taking
# memref descriptors by pointer. Tools: HIVM_OPT (default: hivm-opt on PATH,
# else this checkout's target/{release,debug}), LLVM_BIN (/usr/lib/llvm-22/bin).
set -euo pipefail

die() { echo "host-compile: $*" >&2; exit 1; }

kernel="" out="" impls=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) [ $# -ge 2 ] || die "-o needs a file"; out="$2"; shift 2 ;;
    *.mlir) kernel="$1"; shift ;;
    *.c|*.cc|*.cpp|*.cxx) impls+=("$1"); shift ;;
    *) die "unexpected argument '$1' (expected KERNEL.mlir, C/C++ files, -o OUT.so)" ;;
  esac
done
[ -n "$kernel" ] || die "no kernel .mlir file given"
[ -n "$out" ] || die "no output given (-o OUT.so)"
[ ${#impls[@]} -gt 0 ] || die "no implementation files given"

root="$(cd "$(dirname "$0")/.." && pwd)"
llvm="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
opt="${HIVM_OPT:-}"
if [ -z "$opt" ]; then
  if command -v hivm-opt >/dev/null; then opt=hivm-opt
  elif [ -x "$root/target/release/hivm-opt" ]; then opt="$root/target/release/hivm-opt"
  elif [ -x "$root/target/debug/hivm-opt" ]; then opt="$root/target/debug/hivm-opt"
  else die "hivm-opt not found: build it (cargo build -p hivm-cli) or set HIVM_OPT"; fi
fi
for t in mlir-opt mlir-translate clang; do
  [ -x "$llvm/$t" ] || die "$llvm/$t not found (apt-get install mlir-22-tools llvm-22 clang-22, or set LLVM_BIN)"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

objs=()
for f in "${impls[@]}"; do
  o="$work/${#objs[@]}-$(basename "$f").o"
  "$llvm/clang" -O2 -fPIC -c "$f" -o "$o"
  objs+=("$o")
done
list="$(IFS=,; echo "${objs[*]}")"

# The ops' `bitcode` attributes name device bitcode; a host build links the
# host objects alone, so only those are searched.
"$opt" "$kernel" -hivm-check-implementations="files=$list use-bitcode-attrs=false" \
  -one-shot-bufferize -convert-hivm-to-std -o "$work/std.mlir"
"$llvm/mlir-opt" "$work/std.mlir" -allow-unregistered-dialect \
  --llvm-request-c-wrappers --convert-linalg-to-loops --expand-strided-metadata --lower-affine \
  --finalize-memref-to-llvm --convert-scf-to-cf --convert-cf-to-llvm --convert-arith-to-llvm \
  --convert-func-to-llvm --reconcile-unrealized-casts -o "$work/llvm.mlir"
"$llvm/mlir-translate" --allow-unregistered-dialect --mlir-to-llvmir "$work/llvm.mlir" -o "$work/kernel.ll"
"$llvm/clang" -O2 -fPIC -shared -Wno-override-module "$work/kernel.ll" "${objs[@]}" -o "$out"
