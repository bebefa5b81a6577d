"""The checks triton-ascend's own custom-op unit tests make of the linalg stage, in our words:
pointer operands (a scalar pointer and a block of pointers) become memrefs, tuples of ints
become i64 operands, `align_dim`, `indexing_map`, every iterator kind and `extra_buffers` (one
or many, of every scalar dtype) reach the `hivm.hir.custom` line, and an op without
`extra_buffers` carries none."""

import pathlib
import re

import pytest
import triton
import triton.language as tl

import hivm
import hivm.triton
import triton.language.extra.cann.extension as al

SELF = str(pathlib.Path(__file__).resolve())  # bitcode must name an existing file; nothing reads it


@al.register_custom_op
class attrs_probe:
    core, pipe, mode = al.CORE.VECTOR, al.PIPE.PIPE_V, al.MODE.SIMT
    symbol, bitcode = "attrs_probe_impl", SELF
    iterator_types = list(al.IteratorType)

    def __init__(self, x, base, block, offsets: tl.int64, scales, out=None):
        self.indexing_map = [al.affine_map.get_identity(1)]
        self.align_dim = {"block": 1, 1: 0}


@triton.jit
def probe_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n)
    y = tl.load(y_ptr + i, mask=i < n)
    r = al.custom("attrs_probe", x, x_ptr, y_ptr + i, (1, 2, 3), [0.5, 1.5], out=y)
    r = al.custom("attrs_probe", x, x_ptr, y_ptr, (7, n), (2.5, 3.5), out=r)
    tl.store(out_ptr + i, r, mask=i < n)


def _scratch_op(name, buffers):
    cls = type(
        name,
        (),
        {
            "core": al.CORE.VECTOR,
            "pipe": al.PIPE.PIPE_V,
            "mode": al.MODE.SIMT,
            "symbol": name + "_impl",
            "bitcode": SELF,
            "__init__": lambda self, x, out=None: setattr(self, "extra_buffers", buffers),
        },
    )
    return al.register_custom_op(cls)


_scratch_op("scratch_many", [(tl.bfloat16, 256), (tl.float64, 424242), (tl.int8, 11), (tl.float16, 22), (tl.int32, 33)])
_scratch_op("scratch_one", (tl.float32, 128))
_scratch_op("scratch_ints", [(tl.int16, 1001), (tl.uint16, 1002), (tl.int64, 1003), (tl.uint32, 1004), (tl.uint8, 1005)])


@triton.jit
def scratch_kernel(x_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n)
    y = tl.load(out_ptr + i, mask=i < n)
    tl.store(out_ptr + i, al.custom(OP, x, out=y), mask=i < n)


def _linalg(kernel, sig, constexprs):
    return hivm.triton.compile(kernel, sig, constexprs, stage="linalg")


def _op_lines(text, name):
    return [line for line in text.splitlines() if "hivm.hir.custom" in line and f'"{name}"' in line]


PROBE_SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}


def test_pointer_tuple_and_attribute_operands_reach_the_linalg_op():
    text = _linalg(probe_kernel, PROBE_SIG, {"BLOCK": 256})
    assert "func.func @probe_kernel(" in text
    lines = _op_lines(text, "attrs_probe")
    assert len(lines) == 2
    for line in lines:
        assert "tt.ptr" not in line and "!tt." not in line
        for attr in ("hivm.pipe = #hivm.pipe<PIPE_V>", "hivm.tcore_type = #hivm.tcore_type<VECTOR>",
                     "hivm.vf_mode = #hivm.vf_mode<SIMT>", "indexing_map = [#map]"):
            assert attr in line
        assert "align_dim = 1" in line and "align_dim = 0" in line
        kinds = re.search(r"iterator_types = \[([^\]]*)\]", line).group(1)
        for k in ("parallel", "broadcast", "transpose", "reduction", "interleave", "deinterleave",
                  "inverse", "pad", "concat", "gather", "cumulative", "opaque"):
            assert k in kinds
        operand_types = line.split(" ins(", 1)[1].split(" outs(", 1)[0]
        # Tuples of ints travel as i64; no i32 operand is left.
        assert "i64, " in operand_types and "i32, " not in operand_types
        # The scalar pointer is its argument's memref.
        assert "memref<?xf32>" in operand_types
    # The block of pointers is its view.
    assert "memref<256xf32, strided<[1], offset: ?>>" in lines[0]
    assert "#map = affine_map<(d0) -> (d0)>" in text
    assert "parallel_mode = \"mix_simd_simt\"" in text


@pytest.mark.parametrize(
    "op, present",
    [
        ("scratch_many", ["bf16", "f64", "i8", "f16", "i32", "424242"]),
        ("scratch_one", ["f32", "128"]),
        ("scratch_ints", ["i16", "i64", "i32", "i8", "1001", "1005"]),
    ],
)
def test_extra_buffers_keep_their_types_and_sizes(op, present):
    sig = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "OP": "constexpr", "BLOCK": "constexpr"}
    text = _linalg(scratch_kernel, sig, {"OP": op, "BLOCK": 256})
    (line,) = _op_lines(text, op)
    types = re.search(r"extra_buffers_types = \[([^\]]*)\]", line).group(1)
    sizes = re.search(r"extra_buffers_sizes = \[([^\]]*)\]", line).group(1)
    for p in present:
        assert p in types or p in sizes, (p, line)


def test_an_op_without_extra_buffers_has_no_scratch_attributes():
    text = _linalg(probe_kernel, PROBE_SIG, {"BLOCK": 256})
    for line in _op_lines(text, "attrs_probe"):
        assert "extra_buffers_types" not in line and "extra_buffers_sizes" not in line


def test_the_linalg_stage_round_trips_through_hivm_opt():
    text = _linalg(probe_kernel, PROBE_SIG, {"BLOCK": 256})
    assert hivm.opt(text).rstrip("\n") == text.rstrip("\n")
