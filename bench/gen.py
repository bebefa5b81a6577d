#!/usr/bin/env python3
"""Generates benchmark kernels in MLIR generic form (so upstream mlir-opt can
read them with --allow-unregistered-dialect).

Usage: gen.py KIND N OUT   with KIND in custom | arith | nested
  custom  N `hivm.hir.custom` ops with 6 attributes each, chained through SSA
  arith   N `arith.addf`/`arith.mulf` ops in a chain
  nested  N ops inside `scf.for` loops nested three deep (10 ops per body)
Deterministic: the same arguments always give the same bytes.
"""
import sys

PIPES = ["PIPE_V", "PIPE_MTE2", "PIPE_MTE3", "PIPE_S"]


def custom(n, w):
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>, sym_name = "kernel"}> ({\n')
    w('  ^bb0(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>):\n')
    prev = "%arg0"
    for i in range(n):
        pipe = PIPES[i % len(PIPES)]
        w(f'    %{i} = "hivm.hir.custom"({prev}, %arg1) <{{name = "op_{i % 97}", operandSegmentSizes = array<i32: 1, 1, 0>}}> '
          f'{{extra_buffers_sizes = [{256 * (1 + i % 4)}], extra_buffers_types = [f32], hivm.pipe = #hivm.pipe<{pipe}>, '
          f'hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "kernel_impl_{i % 13}"}} '
          f': (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>\n')
        prev = f"%{i}"
    w(f'    "func.return"({prev}) : (tensor<64xf32>) -> ()\n')
    w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def arith(n, w):
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = (f32, f32) -> f32, sym_name = "chain"}> ({\n')
    w('  ^bb0(%arg0: f32, %arg1: f32):\n')
    prev = "%arg0"
    for i in range(n):
        op = "arith.addf" if i % 2 == 0 else "arith.mulf"
        w(f'    %{i} = "{op}"({prev}, %arg1) <{{fastmath = #arith.fastmath<none>}}> : (f32, f32) -> f32\n')
        prev = f"%{i}"
    w(f'    "func.return"({prev}) : (f32) -> ()\n')
    w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def nested(n, w):
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = (index, f32) -> (), sym_name = "loops"}> ({\n')
    w('  ^bb0(%arg0: index, %arg1: f32):\n')
    w('    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index\n')
    w('    %c1 = "arith.constant"() <{value = 1 : index}> : () -> index\n')
    per_body = 10
    loops = max(1, n // (per_body + 3))
    v = 0
    for l in range(loops):
        w('    "scf.for"(%c0, %arg0, %c1) ({\n')
        w(f'    ^bb0(%i{l}: index):\n')
        w('      "scf.for"(%c0, %arg0, %c1) ({\n')
        w(f'      ^bb0(%j{l}: index):\n')
        w('        "scf.for"(%c0, %arg0, %c1) ({\n')
        w(f'        ^bb0(%k{l}: index):\n')
        prev = "%arg1"
        for _ in range(per_body):
            w(f'          %v{v} = "arith.addf"({prev}, %arg1) <{{fastmath = #arith.fastmath<none>}}> : (f32, f32) -> f32\n')
            prev = f"%v{v}"
            v += 1
        w(f'          "test.sink"({prev}, %i{l}, %j{l}, %k{l}) : (f32, index, index, index) -> ()\n')
        w('          "scf.yield"() : () -> ()\n')
        w('        }) : (index, index, index) -> ()\n')
        w('        "scf.yield"() : () -> ()\n')
        w('      }) : (index, index, index) -> ()\n')
        w('      "scf.yield"() : () -> ()\n')
        w('    }) : (index, index, index) -> ()\n')
    w('    "func.return"() : () -> ()\n')
    w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(out, "w") as f:
        buf = []
        def w(s):
            buf.append(s)
            if len(buf) > 4096:
                f.write("".join(buf))
                buf.clear()
        {"custom": custom, "arith": arith, "nested": nested}[kind](n, w)
        f.write("".join(buf))


if __name__ == "__main__":
    main()
