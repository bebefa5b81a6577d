"""What a kernel author meets first: the twin header installed with the package, the
module each al.custom call or launch runs written out (HIVM_DUMP / dump=) and runnable by
hivm-run alone, a twin error naming the kernel's Python line once, and the TTIR's custom
op carrying the call's location."""

import ast
import os
import pathlib
import shlex
import subprocess
import sys

import numpy as np

import hivm
import hivm.triton

ROOT = pathlib.Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
HIVM_RUN = os.environ.get("HIVM_RUN", str(ROOT / "target" / "debug" / "hivm-run"))


def test_the_header_is_installed_with_the_package():
    header = pathlib.Path(hivm.include_dir()) / "hivm_twin.h"
    assert header.is_file(), f"{header} is not in the installed package"
    # The very header implementations are built against, not a stale copy.
    assert header.read_text() == hivm.twin_header()
    assert "HIVM_TWIN_UNEMULATED(vcadd)" in header.read_text()


def _rerun(module, *extra):
    """Runs a dumped module with the hivm-run command written at its end."""
    last = pathlib.Path(module).read_text().rstrip("\n").splitlines()[-1]
    assert last.startswith("// hivm-run "), last
    cmd = shlex.split(last[3:])
    cmd[0] = HIVM_RUN
    return subprocess.run(cmd + list(extra), capture_output=True, text=True)


def _printed(stdout):
    # `arg N (TYPE): [v, ...]`
    return [int(x) for x in stdout.split(": ", 1)[1].strip().strip("[]").split(", ")]


def test_run_dump_runs_by_itself(tmp_path):
    a, b = np.load(EX / "custom_add" / "a.npy"), np.load(EX / "custom_add" / "b.npy")
    out = np.zeros(32, np.int32)
    args = [np.zeros(1, np.int8), np.zeros(1, np.int8), out, a, b, 1, 1, 1, 0, 0, 0]
    hivm.run(str(EX / "custom_add" / "kernel.mlir"), args, dump=tmp_path)
    module = tmp_path / "kernel.mlir"
    assert module.is_file() and (tmp_path / "kernel.arg3.npy").is_file()
    # The kernel's `source = "add.cpp"` is relative to the kernel: made absolute.
    assert f'source = "{EX / "custom_add"}/add.cpp"' in module.read_text()
    r = _rerun(module, "--print", "2")
    assert r.returncode == 0, r.stderr
    assert _printed(r.stdout) == out.tolist()


KERNEL = '''
import numpy as np
import triton
import triton.language as tl
import triton.language.extra.cann.extension as al
import torch_npu  # the twin's stand-in under HIVM_TWIN=1


@al.register_custom_op
class my_add:
    core = al.CORE.VECTOR
    pipe = al.PIPE.PIPE_V
    mode = al.MODE.SIMD

    def __init__(self, a, b, out=None):
        self.symbol = "custom_add_" + str(a.dtype)
        self.bitcode = "my_add.bc"  # the twin builds my_add.cpp beside it


@triton.jit
def kernel(o_ptr, a_ptr, b_ptr, L: tl.constexpr):
    i = tl.arange(0, L)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    res = al.custom("my_add", a, b, out=tl.full([L], 0, a.dtype))  # THE CALL
    tl.store(o_ptr + i, res)


a = np.arange(32, dtype=np.int32)
b = np.full(32, 100, dtype=np.int32)
out = np.zeros(32, dtype=np.int32)
kernel[(1,)](out, a, b, 32)
print("RESULT", out.tolist())
'''
CALL_LINE = next(i for i, line in enumerate(KERNEL.splitlines(), 1) if "THE CALL" in line)


def _run_kernel(tmp_path, impl_text, env_extra=None):
    script = tmp_path / "my_kernel.py"
    script.write_text(KERNEL)
    (tmp_path / "my_add.cpp").write_text(impl_text)
    env = dict(os.environ, HIVM_TWIN="1", **(env_extra or {}))
    if "HIVM_DUMP" not in (env_extra or {}):
        env.pop("HIVM_DUMP", None)
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)


def test_hivm_dump_writes_each_call_and_hivm_run_agrees(tmp_path):
    dump = tmp_path / "dump"
    r = _run_kernel(tmp_path, (EX / "triton" / "add.cpp").read_text(), {"HIVM_DUMP": str(dump)})
    assert r.returncode == 0, r.stderr
    result = ast.literal_eval(r.stdout.split("RESULT", 1)[1].strip())
    assert result == [i + 100 for i in range(32)]
    module = dump / f"al.custom-my_add-my_kernel-{CALL_LINE}.mlir"
    assert module.is_file(), sorted(os.listdir(dump))
    # The module's parameters are the op's ins then outs: the out is argument 2.
    rerun = _rerun(module, "--print", "2")
    assert rerun.returncode == 0, rerun.stderr
    assert _printed(rerun.stdout) == result


# The document's add, with a plain-C store into an input it must not change.
OVERRUN = "  new_src0_ptr[0] = 7;  // an input is not the output\n"


def test_twin_error_names_the_python_line_and_the_module_once(tmp_path):
    impl = (EX / "triton" / "add.cpp").read_text()
    anchor = "  INTRINSIC_NO_ARGS(set_mask_norm);\n"
    assert anchor in impl
    r = _run_kernel(tmp_path, impl.replace(anchor, anchor + OVERRUN))
    assert r.returncode != 0
    err = r.stderr
    assert f"{tmp_path / 'my_kernel.py'}:{CALL_LINE}: al.custom('my_add') failed on the CPU twin" in err, err
    # The twin's report names the dumped module (not `<string>`), which exists.
    assert "<string>:" not in err, err
    module = err.split("(the module it ran: ", 1)[1].split(")", 1)[0]
    assert os.path.isfile(module) and f"{module}:" in err, err
    # The report once: Triton's interpreter re-raises it as InterpreterError(repr(e)).
    report_lines = [line for line in err.splitlines() if "error:" in line and module in line]
    assert len(report_lines) == 1, err
    assert err.count("failed on the CPU twin") == 2, err  # the error, and the one-line InterpreterError


def test_ttir_custom_op_carries_the_call_location(tmp_path):
    sys.path.insert(0, str(tmp_path))
    try:
        (tmp_path / "loc_kernel.py").write_text(
            KERNEL.split("a = np.arange")[0].replace("import torch_npu", "").replace('"my_add.bc"', repr(str(tmp_path / "my_add.bc")))
        )
        (tmp_path / "my_add.bc").write_bytes(b"")
        import loc_kernel

        ttir = hivm.triton.compile(loc_kernel.kernel, {"o_ptr": "*i32", "a_ptr": "*i32", "b_ptr": "*i32",
                                                       "L": "constexpr"}, {"L": 32})
    finally:
        sys.path.remove(str(tmp_path))
    op = next(line for line in ttir.splitlines() if "hivm.hir.custom" in line)
    assert f'loc("{tmp_path / "loc_kernel.py"}":{CALL_LINE}:' in op, op
    # The linalg stage parses it.
    hivm.opt(ttir, "builtin.module(triton-to-linalg{global-kernel=false named-ops=true})")
