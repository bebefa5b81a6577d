#!/usr/bin/env python3
"""Generates benchmark kernels in MLIR generic form (so upstream mlir-opt can
read them with --allow-unregistered-dialect).

Usage: gen.py KIND N OUT   with KIND in custom | arith | nested
  custom  N `hivm.hir.custom` ops with 6 attributes each, chained through SSA
  arith   N `arith.addf`/`arith.mulf` ops in a chain
  nested  N ops inside `scf.for` loops nested three deep (10 ops per body)
  pipeline  a tensor kernel of N custom ops for the pass pipeline: each op
          writes a fresh `tensor.empty` (with an extra buffer) or, every
          third op, its input in place (`inplace_outs`)
  blocks  one function of N blocks chained by `cf.br` (block headers print
          `// pred:` comments)
  affine  one `affine.apply` whose map is a sum of N terms mixing dims,
          symbol products and constants (simplified as the map is parsed)
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


def blocks(n, w):
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = () -> (), sym_name = "chain"}> ({\n')
    w('    "cf.br"()[^bb1] : () -> ()\n')
    for i in range(1, n):
        w(f'  ^bb{i}:\n    "cf.br"()[^bb{i + 1}] : () -> ()\n')
    w(f'  ^bb{n}:\n    "func.return"() : () -> ()\n')
    w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def affine(n, w):
    terms = []
    for k in range(n):
        t = f"d{k % 4}" if k % 3 == 0 else f"s{k % 7} * {k % 5 + 1}"
        terms.append(f"{t} + {k}" if k % 2 else t)
    m = "(d0, d1, d2, d3)[s0, s1, s2, s3, s4, s5, s6] -> (" + " + ".join(terms) + ")"
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = (index, index) -> index, sym_name = "sum"}> ({\n')
    w('  ^bb0(%i: index, %j: index):\n')
    w(f'    %r = "affine.apply"(%i, %i, %i, %i, %j, %j, %j, %j, %j, %j, %j) <{{map = affine_map<{m}>}}> : '
      f'({", ".join(["index"] * 11)}) -> index\n')
    w('    "func.return"(%r) : (index) -> ()\n')
    w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def functions(n, w):
    """n ops in functions of 30 `arith.addi`s each: per-function pipelines."""
    w('"builtin.module"() ({\n')
    for f in range(max(1, n // 30)):
        w(f'  "func.func"() <{{function_type = (i32) -> i32, sym_name = "f{f}"}}> ({{\n')
        w('  ^bb0(%a: i32):\n')
        prev = "%a"
        for i in range(30):
            w(f'    %v{i} = "arith.addi"({prev}, %a) : (i32, i32) -> i32\n')
            prev = f"%v{i}"
        w(f'    "func.return"({prev}) : (i32) -> ()\n')
        w('  }) : () -> ()\n')
    w('}) : () -> ()\n')


def pipeline(n, w):
    t = "tensor<64xf32>"
    w('"builtin.module"() ({\n')
    w('  "func.func"() <{function_type = (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> (), sym_name = "kernel"}> ({\n')
    w('  ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>):\n')
    w(f'    %a = "bufferization.to_tensor"(%arg0) <{{restrict, writable}}> : (memref<64xf32>) -> {t}\n')
    w(f'    %b = "bufferization.to_tensor"(%arg1) <{{restrict}}> : (memref<64xf32>) -> {t}\n')
    prev = "%a"
    for i in range(n):
        pipe = PIPES[i % len(PIPES)]
        # In-place ops take no scratch buffer, so they call another symbol.
        sym = f"kernel_inplace_{i % 13}" if i % 3 == 2 else f"kernel_impl_{i % 13}"
        common = (f'hivm.pipe = #hivm.pipe<{pipe}>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, '
                  f'hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "{sym}"')
        seg = '<{name = "op_%d", operandSegmentSizes = array<i32: 2, 1, 0>}>' % (i % 97)
        if i % 3 == 2:
            w(f'    %r{i} = "hivm.hir.custom"({prev}, %b, {prev}) {seg} {{arg_attrs = [{{inplace_outs = 0 : i32}}, {{}}], '
              f'{common}}} : ({t}, {t}, {t}) -> {t}\n')
        else:
            w(f'    %e{i} = "tensor.empty"() : () -> {t}\n')
            w(f'    %r{i} = "hivm.hir.custom"({prev}, %b, %e{i}) {seg} {{extra_buffers_sizes = [{256 * (1 + i % 4)}], '
              f'extra_buffers_types = [f32], {common}}} : ({t}, {t}, {t}) -> {t}\n')
        prev = f"%r{i}"
    w(f'    "bufferization.materialize_in_destination"({prev}, %arg2) <{{writable}}> : ({t}, memref<64xf32>) -> ()\n')
    w('    "func.return"() : () -> ()\n')
    w('  }) {hacc.function_kind = #hacc.function_kind<DEVICE>} : () -> ()\n')
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
        kinds = {"custom": custom, "arith": arith, "nested": nested, "pipeline": pipeline, "blocks": blocks, "affine": affine,
                 "functions": functions}
        kinds[kind](n, w)
        f.write("".join(buf))


if __name__ == "__main__":
    main()
