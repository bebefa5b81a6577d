"""hivm.triton.compile: Triton's TTIR with each al.custom call as the op triton-ascend
emits, carrying every attribute kind."""

import pathlib
import re

import triton
import triton.language as tl

import hivm.triton
import triton.language.extra.cann.extension as al

HERE = pathlib.Path(__file__)
E = al.affine_expr


@al.register_custom_op
class compile_vec_op:
    core, pipe, mode = al.CORE.VECTOR, al.PIPE.PIPE_V, al.MODE.SIMT
    symbol, bitcode = "vec_impl", str(HERE)  # triton-ascend's tests point bitcode at themselves too
    iterator_types = list(al.IteratorType)
    indexing_map = [al.affine_map.get_identity(1), al.affine_map.get(1, 0, [E.get_dim(0) // 2])]
    extra_buffers = [
        (tl.bfloat16, 256),
        (tl.float64, 424242),
        (tl.int8, 8),
        (tl.float16, 4),
        (tl.int32, 16),
        (tl.uint16, 2),
        (tl.int64, 1),
        (tl.float32, 64),
    ]

    def __init__(self, a, n: tl.int64, offsets, out=None):
        self.align_dim = {"a": 0, 1: 1}


@al.register_custom_op
class compile_macro_op:
    core, pipe, mode = al.CORE.VECTOR, [al.PIPE.PIPE_MTE2, al.PIPE.PIPE_V], al.MODE.SIMD
    symbol, bitcode = "macro_impl", str(HERE)
    sync_event_slots = [
        al.SyncEventSlot(al.PIPE.PIPE_MTE2, al.PIPE.PIPE_MTE1, al.SYNC_HINT.WAIT, al.EVENT_ID.EVENT_ID1),
        (al.PIPE.PIPE_M, al.PIPE.PIPE_MTE2, al.SYNC_HINT.SET),
        (al.PIPE.PIPE_MTE2, al.PIPE.PIPE_V, al.SYNC_HINT.INTERNAL, al.EVENT_ID.EVENT_ID5),
        ("internal",),
    ]

    def __init__(self, a, out=None):
        pass


@triton.jit
def kernel(x_ptr, o_ptr, n, L: tl.constexpr):
    i = tl.arange(0, L)
    a = tl.load(x_ptr + i)
    r = al.custom("compile_vec_op", a, n, (1, 2, 3), out=tl.full([L], 0, a.dtype))
    r2 = al.custom("compile_macro_op", r, out=tl.full([L], 0, a.dtype))
    tl.store(o_ptr + i, r2)


def _op_line(ttir, kind):
    return next(line for line in ttir.splitlines() if re.search(rf"= {kind} ", line))


def test_compile_emits_every_attribute_kind():
    ttir = hivm.triton.compile(kernel, {"x_ptr": "*fp32", "o_ptr": "*fp32", "n": "i32", "L": "constexpr"}, {"L": 32})
    assert "tt.call" not in ttir and "__hivm_al_custom_" not in ttir
    vec = _op_line(ttir, "hivm.hir.custom")
    assert '"compile_vec_op" ins(' in vec and "outs(" in vec and vec.rstrip().split(" loc(")[0].endswith(
        "-> tensor<32xf32>"
    )
    for piece in [
        "hivm.pipe = #hivm.pipe<PIPE_V>",
        "hivm.tcore_type = #hivm.tcore_type<VECTOR>",
        "hivm.vf_mode = #hivm.vf_mode<SIMT>",
        'symbol = "vec_impl"',
        f'bitcode = "{HERE.absolute()}"',
        "indexing_map = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 2)>]",
        "extra_buffers_types = [bf16, f64, i8, f16, i32, i16, i64, f32]",
        "extra_buffers_sizes = [256, 424242, 8, 4, 16, 2, 1, 64]",
        "arg_attrs = [{align_dim = 0 : i64}, {align_dim = 1 : i64}, {}, {}]",
    ]:
        assert piece in vec, (piece, vec)
    for it in al.IteratorType:
        assert f"#hivm.iterator_type<{it.value}>" in vec
    # The i32 kernel argument is cast to the i64 hint; the tuple is flattened into i32s.
    assert re.search(r"ins\(%\w+, %\w+, %\w+, %\w+, %\w+ : tensor<32xf32>, i64, i32, i32, i32\)", vec), vec
    assert "arith.extsi %n : i32 to i64" in ttir

    mac = _op_line(ttir, "hivm.hir.custom_macro")
    for piece in [
        "hivm.pipe_in = #hivm.pipe<PIPE_MTE2>",
        "hivm.pipe_out = #hivm.pipe<PIPE_V>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_MTE2>, set>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal, <EVENT_ID5>>",
        "#hivm.sync_event_slot<internal>",
    ]:
        assert piece in mac, (piece, mac)
    assert "hivm.pipe =" not in mac


@triton.jit
def gather_kernel(src_ptr, idx_ptr, o_ptr):
    r = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
    idx = tl.load(idx_ptr + r)
    g = al.custom("__builtin_gather_load", src_ptr, idx, 4, 0, (2, 1), (2, 2), (0, 0), out=tl.full([2, 2], 0, tl.float32))
    tl.store(o_ptr + r, g)


@triton.jit
def bad_gather_kernel(src_ptr, idx_ptr, o_ptr):
    r = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
    idx = tl.load(idx_ptr + r)
    g = al.custom("__builtin_gather_load", src_ptr, idx, 4, 5, (2, 1), (2, 2), (0, 0), out=tl.full([2, 2], 0, tl.float32))
    tl.store(o_ptr + r, g)


def test_builtin_gather_load_operands():
    """The operand order and types of the CustomOp document's gather_load example:
    src, index, bound (i64), dim (i32), src_stride (i64 each), index_shape and offsets (i32 each)."""
    sig = {"src_ptr": "*fp32", "idx_ptr": "*i32", "o_ptr": "*fp32"}
    line = _op_line(hivm.triton.compile(gather_kernel, sig), "hivm.hir.custom")
    assert '"__builtin_gather_load"' in line and "symbol" not in line and "bitcode" not in line
    types = re.search(r"ins\([^:]*: ([^)]*)\)", line).group(1)
    assert types == "!tt.ptr<f32>, tensor<2x2xi32>, i64, i32, i64, i64, i32, i32, i32, i32", line
    assert "hivm.vf_mode = #hivm.vf_mode<SIMT>" in line


def test_builtin_checks_give_triton_ascends_messages():
    import pytest

    sig = {"src_ptr": "*fp32", "idx_ptr": "*i32", "o_ptr": "*fp32"}
    with pytest.raises(Exception, match=r"dim should in \[0, 2\), but got 5"):
        hivm.triton.compile(bad_gather_kernel, sig)


@al.builtin
def wrapped_gather(src, idx, _semantic=None):
    """An op-like wrapper, as triton-ascend's demos write them: no _generator passed."""
    out = _semantic.full([2, 2], 0, tl.float32)
    return al.custom_semantic("__builtin_gather_load", src, idx, 4, 0, (2, 1), (2, 2), (0, 0), out=out, _semantic=_semantic)


@triton.jit
def wrapper_kernel(src_ptr, idx_ptr, o_ptr):
    r = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
    tl.store(o_ptr + r, wrapped_gather(src_ptr, tl.load(idx_ptr + r)))


def test_custom_semantic_from_a_builtin_wrapper():
    sig = {"src_ptr": "*fp32", "idx_ptr": "*i32", "o_ptr": "*fp32"}
    line = _op_line(hivm.triton.compile(wrapper_kernel, sig), "hivm.hir.custom")
    assert '"__builtin_gather_load"' in line and "-> tensor<2x2xf32>" in line
