"""al.custom inside Triton kernels run by the interpreter, on the CPU twin: the
CustomOp document's two tests unchanged under HIVM_TWIN=1, a macro whose implementation
breaks its slot contract, and the errors a kernel author meets."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent

# Not skipped when missing: scripts/test.sh installs both, and a silent skip would hide
# the whole Triton path.
import torch  # noqa: E402,F401
import triton  # noqa: E402,F401


def _pytest_in(folder, *args, env_extra=None):
    env = dict(os.environ, HIVM_TWIN="1", **(env_extra or {}))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_document_examples_run_unchanged():
    out = _pytest_in(ROOT / "examples" / "triton")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 passed" in out.stdout


# The document's macro test itself, with its implementation named IMPL.
KERNEL = (ROOT / "examples" / "triton" / "test_custom_macro_op.py").read_text().replace('"macro_add.bc"', '"IMPL.bc"')
assert '"IMPL.bc"' in KERNEL


MACRO_CPP = ROOT / "examples" / "custom_macro_add" / "macro_add.cpp"
HANDSHAKE = "  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, 0);\n  INTRINSIC(wait_flag, PIPE_MTE2, PIPE_V, 0);\n"


def _macro_test(tmp_path, impl_text):
    (tmp_path / "IMPL.cpp").write_text(impl_text)
    (tmp_path / "test_macro.py").write_text(KERNEL)
    return _pytest_in(tmp_path)


def test_macro_with_a_second_handshake_fails_with_the_slot_report(tmp_path):
    # The example's macro with its one handshake made twice: one slot, two pairs.
    text = MACRO_CPP.read_text()
    assert text.count(HANDSHAKE) == 1
    out = _macro_test(tmp_path, text.replace(HANDSHAKE, HANDSHAKE * 2))
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "al.custom('macro_add') failed on the CPU twin" in text
    assert "declares 1 internal sync slot(s)" in text and "makes 2" in text, text


def test_the_same_macro_with_one_handshake_passes(tmp_path):
    # The control: only the extra handshake differs.
    out = _macro_test(tmp_path, MACRO_CPP.read_text())
    assert out.returncode == 0, out.stdout + out.stderr


def test_missing_implementation_is_named(tmp_path):
    (tmp_path / "test_macro.py").write_text(KERNEL)
    out = _pytest_in(tmp_path)
    text = out.stdout + out.stderr
    assert out.returncode == 1
    assert "al.custom('macro_add'): no implementation for the CPU twin" in text
    assert str(tmp_path / "IMPL.cpp") in text


SCALAR_KERNEL = '''
import triton
import triton.language as tl
import triton.language.extra.cann.extension as al
import torch


@al.register_custom_op
class add_scalar:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_V
    mode = al.MODE.SIMD

    def __init__(self, a, n HINT, out=None):
        self.symbol = "add_scalar_" + str(a.dtype)
        self.bitcode = "add_scalar.bc"


@triton.jit
def kernel(o_ptr, a_ptr, n, L: tl.constexpr):
    idx = tl.arange(0, L)
    a = tl.load(a_ptr + idx)
    res = al.custom("add_scalar", a, n, out=tl.full([L], 0, a.dtype))
    tl.store(o_ptr + idx, res)


def test_scalar():
    a = torch.arange(64, dtype=torch.int32)
    out = torch.zeros(64, dtype=torch.int32)
    kernel[(1,)](out, a, 1000, 64)
    torch.testing.assert_close(out, a + 1000)
'''


@pytest.mark.parametrize("hint, passes", [(": tl.int64", True), ("", False)])
def test_scalar_operand_typed_by_its_hint(tmp_path, hint, passes):
    """The kernel's int argument is an i32 scalar; the hint makes it i64, as the C
    implementation declares. Without the hint the twin names the mismatch."""
    (tmp_path / "add_scalar.cpp").write_text((HERE / "twin" / "add_scalar.cpp").read_text())
    (tmp_path / "test_scalar.py").write_text(SCALAR_KERNEL.replace("HINT", hint))
    out = _pytest_in(tmp_path)
    text = out.stdout + out.stderr
    if passes:
        assert out.returncode == 0, text
    else:
        assert out.returncode == 1, text
        assert "al.custom('add_scalar') failed on the CPU twin" in text
        assert "int64_t" in text and "i32" in text, text


POINTER_KERNEL = '''
import triton
import triton.language as tl
import triton.language.extra.cann.extension as al
import torch
import pytest


@al.register_custom_op
class ptr_load:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_MTE2
    mode = al.MODE.SIMD

    def __init__(self, src, n: tl.int64, out=None):
        self.symbol = "ptr_load_" + src.dtype.element_ty.cname
        self.bitcode = "ptr_load.bc"


@al.register_custom_op
class ptr_store:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_MTE3
    mode = al.MODE.SIMD

    def __init__(self, v, dst):
        self.symbol = "ptr_store_" + dst.dtype.element_ty.cname
        self.bitcode = "ptr_load.bc"


@triton.jit
def kernel(x_ptr, y_ptr, o_ptr, L: tl.constexpr):
    idx = tl.arange(0, L)
    # Reads x[4:4+L] through a pointer, plus 100.
    r = al.custom("ptr_load", x_ptr + 4, 100, out=tl.full([L], 0, tl.float32))
    tl.store(o_ptr + idx, r)
    # Writes 2 * r into y[2:2+L] through a pointer.
    al.custom("ptr_store", r, y_ptr + 2)


def test_pointers():
    x = torch.arange(16, dtype=torch.float32)
    y = torch.zeros(12, dtype=torch.float32)
    o = torch.zeros(8, dtype=torch.float32)
    kernel[(1,)](x, y, o, 8)
    torch.testing.assert_close(o, x[4:12] + 100)
    want = torch.zeros(12)
    want[2:10] = 2 * (x[4:12] + 100)
    torch.testing.assert_close(y, want)


def test_numpy_arrays():
    # The same launch with numpy arrays: the kernel writes into them.
    import numpy as np

    x = np.arange(16, dtype=np.float32)
    y = np.zeros(12, dtype=np.float32)
    o = np.zeros(8, dtype=np.float32)
    kernel[(1,)](x, y, o, 8)
    np.testing.assert_allclose(o, x[4:12] + 100)
    np.testing.assert_allclose(y[2:10], 2 * (x[4:12] + 100))


@triton.jit
def gather(src_ptr, idx_ptr, o_ptr):
    r = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
    index = tl.load(idx_ptr + r)
    out = tl.full([2, 2], 0, tl.float32)
    res = al.custom("__builtin_gather_load", src_ptr, index, 4, 0, (2, 1), (2, 2), (0, 0), out=out)
    tl.store(o_ptr + r, res)


def test_builtin_gather_load():
    # triton-ascend's own example: torch.gather-like along dim 0.
    src = torch.tensor([[1, 2], [3, 4], [5, 6], [7, 8]], dtype=torch.float32)
    index = torch.tensor([[0, 1], [2, 3]], dtype=torch.int32)
    out = torch.zeros(2, 2, dtype=torch.float32)
    gather[(1,)](src, index, out)
    torch.testing.assert_close(out, torch.tensor([[1.0, 4.0], [5.0, 8.0]]))


@triton.jit
def put(dst_ptr, idx_ptr, v_ptr):
    r = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
    al.custom("__builtin_index_put", dst_ptr, tl.load(idx_ptr + tl.arange(0, 2)), tl.load(v_ptr + r), 0, 4,
              (4, 2), (0, 0), (2, 1))


def test_unimplemented_builtin_is_refused():
    dst = torch.zeros(4, 2)
    with pytest.raises(Exception) as e:
        put[(1,)](dst, torch.tensor([0, 1], dtype=torch.int32), torch.ones(2, 2))
    assert "AscendNPU-IR has no implementation of this builtin" in str(e.value)
'''


def test_pointer_operands_and_builtins(tmp_path):
    (tmp_path / "ptr_load.cpp").write_text((HERE / "twin" / "ptr_load.cpp").read_text())
    (tmp_path / "test_pointers.py").write_text(POINTER_KERNEL)
    out = _pytest_in(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "4 passed" in out.stdout, out.stdout


FIDELITY_KERNEL = '''
import pytest
import torch
import triton
import triton.language as tl
import triton.language.extra.cann.extension as al


@triton.jit
def rows(src_ptr, index_ptr, out_ptr):
    # triton-ascend's index_select example: rows index[0], index[1] of a 4x4 source,
    # its first two columns. The source is a pointer: its rank is src_stride's length.
    r = tl.arange(0, 2)[:, None]
    c = tl.arange(0, 2)[None, :]
    idx = tl.load(index_ptr + tl.arange(0, 2))
    tile = al.custom("__builtin_index_select", src_ptr, idx, dim=0, bound=4, end_offset=(2, 2),
                     start_offset=(0, 0), src_stride=(4, 1), out=tl.full((2, 2), 0, dtype=tl.float32))
    tl.store(out_ptr + r * 2 + c, tile)


def test_index_select_example():
    src = torch.tensor([[10.0, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33], [40, 41, 42, 43]])
    out = torch.empty(2, 2)
    rows[(1,)](src, torch.tensor([2, 0], dtype=torch.int32), out)
    torch.testing.assert_close(out, torch.index_select(src, 0, torch.tensor([2, 0]))[:, :2])


ALIGN = {}


@al.register_custom_op
class aligned:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_MTE2
    mode = al.MODE.SIMD

    def __init__(self, src, n: tl.int64, out=None):
        self.symbol = "ptr_load_float"
        self.bitcode = "ptr_load.bc"
        self.align_dim = dict(ALIGN)


@triton.jit
def load(x_ptr, o_ptr, L: tl.constexpr):
    r = al.custom("aligned", x_ptr, 1, out=tl.full([L], 0, tl.float32))
    tl.store(o_ptr + tl.arange(0, L), r)


@pytest.mark.parametrize("key, dim, error", [
    ("src", 0, None),
    (0, 0, None),
    ("nope", 0, "align_dim's keys should be string or int"),
    (1.5, 0, "align_dim's keys should be string or int"),
    ("src", 1, "align dim is too large."),
])
def test_align_dim_is_checked(key, dim, error):
    ALIGN.clear()
    ALIGN[key] = dim
    x, o = torch.arange(8, dtype=torch.float32), torch.zeros(8)
    if error is None:
        load[(1,)](x, o, 8)
        torch.testing.assert_close(o, x + 1)
    else:
        with pytest.raises(Exception) as e:
            load[(1,)](x, o, 8)
        assert error in str(e.value)
'''


def test_index_select_and_align_dim_as_triton_ascend(tmp_path):
    (tmp_path / "ptr_load.cpp").write_text((HERE / "twin" / "ptr_load.cpp").read_text())
    (tmp_path / "test_fidelity.py").write_text(FIDELITY_KERNEL)
    out = _pytest_in(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 passed" in out.stdout, out.stdout
