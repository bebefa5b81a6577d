"""Triton kernels compiled all the way to HIVM (``stage="hivm"``: bishengir-compile's front
half as ``hivm-compile`` runs it) and run whole on the CPU twin, directly and as
``HIVM_TWIN=compile`` runs every ``kernel[grid](...)`` launch."""

import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
import torch  # noqa: F401  (the suite's launches take torch tensors too)
import triton
import triton.language as tl

import hivm
import hivm.triton

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import test_triton_linalg as base  # noqa: E402  (the kernels and cases of the linalg stage)
from test_triton_linalg import bitcodes  # noqa: E402,F401  (a fixture)


def test_document_add_at_stage_hivm_loads_into_ub_adds_stores_with_flags(bitcodes):
    text = hivm.triton.compile(base.triton_custom_add, base.DOC_SIG, {"L": 32}, stage="hivm")
    # Two loads from GM into UB, the custom op on UB buffers, the store back, and the solver's
    # MTE2 -> V and V -> MTE3 handshakes.
    assert len(re.findall(r"hivm\.hir\.load ins\(%\S+ : memref<32xi32, strided<\[1\]>, #hivm\.address_space<gm>>\) outs\(%\S+ : memref<32xi32, #hivm\.address_space<ub>>\)", text)) == 2, text
    assert re.search(r'hivm\.hir\.custom \{[^}]*symbol = "custom_add_int32"[^}]*\} "add" ins\(%\S+, %\S+ : memref<32xi32, #hivm\.address_space<ub>>', text), text
    assert "hivm.hir.store ins(" in text, text
    assert "hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>" in text and "hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>" in text, text
    assert "hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>" in text and "hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>" in text, text
    assert "hacc.entry" in text and "ffts_base_address" in text
    for form in ("tensor<", "bufferization.", "linalg.", "memref.copy", "memref.alloc()"):
        assert form not in text, f"{form} left in the HIVM kernel:\n{text}"


def test_document_macro_at_stage_hivm_has_its_slot_event_in_sync_related_args(bitcodes):
    text = hivm.triton.compile(base.triton_custom_macro_add, base.DOC_SIG, {"L": 32}, stage="hivm")
    m = re.search(r"hivm\.hir\.custom_macro \{[^\n]*\) sync_related_args\(%\S+ : i64\)\n", text)
    assert m, text
    # The macro moves its inputs from GM itself (its input pipe is MTE2): it gets the GM views,
    # not UB copies of them.
    assert re.search(r'"macro_add" ins\(%\S+, %\S+ : memref<32xi32, strided<\[1\]>, #hivm\.address_space<gm>>, '
                     r"memref<32xi32, strided<\[1\]>, #hivm\.address_space<gm>>\) outs\(%\S+ : memref<32xi32, "
                     r"#hivm\.address_space<ub>>\)", text), text
    assert "hivm.hir.store ins(" in text and "hivm.hir.load ins(" not in text, text


@pytest.mark.parametrize("kernel", [base.triton_custom_add, base.triton_custom_macro_add], ids=["custom", "macro"])
def test_document_kernels_compiled_to_hivm_run_on_the_twin(bitcodes, kernel):
    a = np.arange(32, dtype=np.int32) * 3
    b = np.full(32, 11, np.int32)
    out = np.zeros(32, np.int32)
    hivm.triton.launch(kernel, (1,), out, a, b, constexprs={"L": 32}, stage="hivm")
    np.testing.assert_array_equal(out, a + b)


def test_prepared_kernels_are_kept_for_the_most_recent_launches(bitcodes, monkeypatch):
    # A session compiling many kernels keeps the last few prepared, not all of them.
    monkeypatch.setattr(hivm.triton, "_PREPARED", type(hivm.triton._PREPARED)())
    monkeypatch.setattr(hivm.triton, "_PREPARED_MAX", 2)
    keys = []
    for n in (16, 32, 16, 64):
        a, b, out = np.arange(n, dtype=np.int32), np.full(n, 2, np.int32), np.zeros(n, np.int32)
        hivm.triton.launch(base.triton_custom_add, (1,), out, a, b, constexprs={"L": n}, stage="hivm")
        np.testing.assert_array_equal(out, a + b)
        keys.append(list(hivm.triton._PREPARED))
    assert [len(k) for k in keys] == [1, 2, 2, 2]
    # 16 was used again after 32, so 32 is the one dropped for 64.
    assert keys[3][0] == keys[2][1] == keys[0][0] and keys[1][1] not in keys[3]


@pytest.fixture(scope="module")
def interpreted(tmp_path_factory):
    return base._interpreted_outputs(tmp_path_factory.mktemp("interp"))


@pytest.mark.parametrize("case", base.CASES, ids=[c[0] for c in base.CASES])
def test_suite_compiled_to_hivm_matches_the_interpreter(case, interpreted):
    name, kernel, grid, args, constexprs, outs, refs = case
    compiled = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    text = hivm.triton.launch(kernel, grid, *compiled, constexprs=constexprs, stage="hivm")
    assert "hivm.hir." in text and not re.search(r"^\s*(%\S+ = )?(linalg|tensor|bufferization)\.", text, re.M), text
    for i, ref in zip(outs, refs):
        np.testing.assert_allclose(compiled[i], ref, rtol=1e-5, atol=1e-5, err_msg=f"{name}: twin vs numpy")
        if name in base.REASSOCIATED:
            np.testing.assert_allclose(compiled[i], interpreted[f"{name}.{i}"], rtol=1e-6, atol=1e-5)
        else:
            np.testing.assert_array_equal(compiled[i], interpreted[f"{name}.{i}"], err_msg=f"{name}: twin vs interpreter")


def _pytest_compiled(folder, *args):
    env = dict(os.environ, HIVM_TWIN="compile")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_document_pytest_files_pass_unchanged_under_compile_mode():
    out = _pytest_compiled(ROOT / "examples" / "triton")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 passed" in out.stdout


def test_compile_mode_compiles_once_per_signature(tmp_path):
    (tmp_path / "add.cpp").write_text((ROOT / "examples" / "triton" / "add.cpp").read_text())
    (tmp_path / "test_twice.py").write_text(
        (ROOT / "examples" / "triton" / "test_custom_op.py").read_text()
        + "\n\ndef test_cached():\n"
        "    import hivm.triton\n"
        "    for n in range(3):\n"
        "        a = torch.full((32,), n, dtype=torch.int32)\n"
        "        out = torch.zeros(32, dtype=torch.int32)\n"
        "        triton_custom_add[1, 1, 1](out, a, a, 32)\n"
        "        torch.testing.assert_close(out, a + a)\n"
        "    assert len(hivm.triton._COMPILED) == 1\n"
    )
    out = _pytest_compiled(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_compile_mode_prepares_once_and_sees_an_edited_implementation(tmp_path):
    # Launches reuse one prepared kernel and the library built for it; an implementation
    # edited between two launches is built again, never run stale.
    (tmp_path / "add.cpp").write_text((ROOT / "examples" / "triton" / "add.cpp").read_text())
    (tmp_path / "test_edit.py").write_text(
        (ROOT / "examples" / "triton" / "test_custom_op.py").read_text()
        + "\n\ndef test_edited():\n"
        "    import pathlib, hivm.triton\n"
        "    a = torch.arange(32, dtype=torch.int32)\n"
        "    b = torch.full((32,), 5, dtype=torch.int32)\n"
        "    for _ in range(2):\n"
        "        out = torch.zeros(32, dtype=torch.int32)\n"
        "        triton_custom_add[1, 1, 1](out, a, b, 32)\n"
        "        torch.testing.assert_close(out, a + b)\n"
        "    assert len(hivm.triton._PREPARED) == 1\n"
        "    src = pathlib.Path('add.cpp')\n"
        "    src.write_text(src.read_text().replace('INTRINSIC(vadd,', 'INTRINSIC(vsub,'))\n"
        "    out = torch.zeros(32, dtype=torch.int32)\n"
        "    triton_custom_add[1, 1, 1](out, a, b, 32)\n"
        "    torch.testing.assert_close(out, a - b)\n"
    )
    out = _pytest_compiled(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_macro_with_two_handshakes_for_one_slot_fails_under_compile_mode(tmp_path):
    handshake = "  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, 0);\n  INTRINSIC(wait_flag, PIPE_MTE2, PIPE_V, 0);\n"
    impl = (ROOT / "examples" / "triton" / "macro_add.cpp").read_text()
    assert impl.count(handshake) == 1
    (tmp_path / "macro_add.cpp").write_text(impl.replace(handshake, handshake * 2))
    (tmp_path / "test_macro.py").write_text((ROOT / "examples" / "triton" / "test_custom_macro_op.py").read_text())
    out = _pytest_compiled(tmp_path)
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "declares 1 internal sync slot(s)" in text and "makes 2" in text, text


WRONG_PIPE = '''
import triton
import triton.language as tl
import triton.language.extra.cann.extension as al
import torch


@al.register_custom_op
class add:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_MTE3
    mode = al.MODE.SIMD

    def __init__(self, a, b, out=None):
        self.symbol = "custom_add_" + str(a.dtype)
        self.bitcode = "add.bc"


@triton.jit
def kernel(o_ptr, a_ptr, b_ptr, L: tl.constexpr):
    idx = tl.arange(0, L)
    a = tl.load(a_ptr + idx)
    b = tl.load(b_ptr + idx)
    res = al.custom("add", a, b, out=tl.full([L], 0, a.dtype))
    tl.store(o_ptr + idx, res)


def test_wrong_pipe():
    a = torch.arange(32, dtype=torch.int32)
    out = torch.zeros(32, dtype=torch.int32)
    kernel[(1,)](out, a, a, 32)
    torch.testing.assert_close(out, a + a)
'''


def test_custom_op_on_the_wrong_pipe_gets_a_located_report(tmp_path):
    # The implementation computes on the vector unit, but the op says MTE3: the solver syncs
    # for MTE3, so the vector work races the loads and the twin reports it at the op.
    (tmp_path / "add.cpp").write_text((ROOT / "examples" / "triton" / "add.cpp").read_text())
    (tmp_path / "test_wrong_pipe.py").write_text(WRONG_PIPE)
    out = _pytest_compiled(tmp_path)
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    # Located in the kernel's Python source, naming the race the implementation's vector work makes.
    assert re.search(r"test_wrong_pipe\.py:\d+:\d+: error: race: PIPE_V read of UB", text), text


@triton.jit
def copy_rows(x_ptr, o_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + i, tl.load(x_ptr + i))


@triton.jit
def forgot_pid(x_ptr, o_ptr, BLOCK: tl.constexpr):
    # The store's offsets leave out the program id: every program writes o[0:BLOCK].
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + i)
    tl.store(o_ptr + i, x)


@pytest.mark.parametrize("stage", ["linalg", "hivm"])
def test_programs_storing_to_the_same_elements_race_across_blocks(stage):
    # On the NPU the programs run at once: o would hold whichever ran last. The twin runs them
    # one by one, so it must say so rather than return the last one's numbers.
    x = np.arange(64, dtype=np.float32)
    o = np.zeros(16, dtype=np.float32)
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.triton.launch(forgot_pid, (4,), x, o, constexprs={"BLOCK": 16}, stage=stage)
    msg = str(e.value)
    # Located (at the tl.store when compiled to HIVM), naming both blocks.
    assert re.search(r":\d+:\d+: error: race across blocks: \S+ write of argument \d+\[0, 64\) "
                     r"in block 1 and block 0's \S+ write", msg), msg
    # With the program id in the offsets the blocks write apart, and the numbers are right.
    ok = np.zeros(64, dtype=np.float32)
    hivm.triton.launch(copy_rows, (4,), x, ok, constexprs={"BLOCK": 16}, stage=stage)
    np.testing.assert_array_equal(ok, x)
