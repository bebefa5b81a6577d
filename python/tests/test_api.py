"""hivm.opt and hivm.run, in-process, against the command-line tools."""

import os
import subprocess
import warnings

import numpy as np
import pytest

import hivm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples")


def npy(name):
    return np.load(os.path.join(EX, name))


def test_opt_prints_and_runs_pipelines():
    src = "func.func @f(%a: i32) -> i32 {\n  %c = arith.constant 0 : i32\n  %r = arith.addi %a, %c : i32\n  return %r : i32\n}\n"
    assert "arith.addi" in hivm.opt(src)
    folded = hivm.opt(src, "builtin.module(canonicalize)")
    assert "arith.addi" not in folded and "return %arg0 : i32" in folded
    assert '"func.func"' in hivm.opt(src, generic=True)


def test_opt_errors_are_located():
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.opt("func.func @f() {\n  %x = arith.addi %y, %y : i32\n  return\n}\n")
    assert "<string>:2:" in str(e.value) and "error:" in str(e.value)
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.opt("func.func @f() { return }", "builtin.module(no-such-pass)")
    assert "no-such-pass" in str(e.value)


def custom_add_args():
    return [
        np.zeros(1, np.int8),
        np.zeros(1, np.int8),
        np.zeros(32, np.int32),
        npy("custom_add/a.npy"),
        npy("custom_add/b.npy"),
        1, 1, 1, 0, 0, 0,
    ]


def test_run_writes_results_back_in_place():
    args = custom_add_args()
    hivm.run(os.path.join(EX, "custom_add/kernel.mlir"), args)
    assert (args[2] == args[3] + args[4]).all()


def test_run_matches_the_command_line():
    args = custom_add_args()
    hivm.run(os.path.join(EX, "custom_add/kernel.mlir"), args)
    cli = os.environ.get("HIVM_RUN", os.path.join(ROOT, "target", "debug", "hivm-run"))
    assert os.path.exists(cli), f"{cli} is not built (cargo build -p hivm-cli, or set HIVM_RUN)"
    out = subprocess.run(
        [cli, os.path.join(EX, "custom_add/kernel.mlir"), "--arg", "zeros:1xi8", "--arg", "zeros:1xi8",
         "--arg", "zeros:32xi32", "--arg", os.path.join(EX, "custom_add/a.npy"), "--arg",
         os.path.join(EX, "custom_add/b.npy")] + sum([["--arg", v] for v in "111000"], []) + ["--print", "2"],
        capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "arg 2 (memref<32xi32>): [" + ", ".join(str(x) for x in args[2]) + "]"


def test_run_sync_reports_raise_or_warn():
    kernel = os.path.join(EX, "sync_bugs/race.mlir")
    z = lambda: [np.zeros(32, np.int32) for _ in range(3)]
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(kernel, z())
    assert "race.mlir:" in str(e.value) and "error: race:" in str(e.value)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        hivm.run(kernel, z(), sync="warn")
    assert any(issubclass(x.category, hivm.SyncWarning) and "race" in str(x.message) for x in w)


def test_run_with_the_sync_solver():
    out = np.zeros(32, np.int32)
    a, b = npy("custom_macro_add/a.npy"), npy("custom_macro_add/b.npy")
    hivm.run(os.path.join(EX, "sync_solver/macro_add.mlir"), [out, a, b], sync_solver=True)
    with pytest.raises(hivm.DiagnosticError):
        hivm.run(os.path.join(EX, "sync_solver/macro_add.mlir"), [np.zeros(32, np.int32), a, b])
    assert out[0] == 1000


def test_run_one_part_of_a_mix_kernel_alone():
    # The vector part of a split mix kernel: refused alone, run with its cross-core
    # handshakes taken as met (each a SyncWarning) with part_alone, its own pipes checked.
    src = (
        "func.func @aiv(%g: memref<16xf32>) attributes {hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {\n"
        "  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>\n"
        "  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 1\n"
        "  hivm.hir.load ins(%g : memref<16xf32>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)\n"
        "  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
        "  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
        "  hivm.hir.vadd ins(%u, %u : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)\n"
        "  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
        "  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
        "  hivm.hir.store ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32>)\n"
        "  return\n}\n"
    )
    g = np.arange(16, dtype=np.float32)
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(src, [g.copy()])
    assert "--part-alone" in str(e.value)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        hivm.run(src, [g], part_alone=True)
    assert np.array_equal(g, 2 * np.arange(16, dtype=np.float32))
    assert any(issubclass(x.category, hivm.SyncWarning) and "taken as met" in str(x.message) for x in w)
    # Its own pipes still: without the MTE2 -> V handshake the vadd races with the load.
    cut = src.replace("  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n", "")
    cut = cut.replace("  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n", "")
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(cut, [np.zeros(16, np.float32)], part_alone=True)
    assert "race" in str(e.value)


def test_run_text_kernel_and_bad_arguments():
    src = "func.func @k(%m: memref<4xf32>, %x: f32) {\n  %c0 = arith.constant 0 : index\n  memref.store %x, %m[%c0] : memref<4xf32>\n  return\n}\n"
    m = np.zeros(4, np.float32)
    hivm.run(src, [m, 2.5])
    assert m[0] == 2.5
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(src, [np.zeros(5, np.float32), 1.0])
    assert "given shape [5]" in str(e.value)
    with pytest.raises(hivm.DiagnosticError):
        hivm.run(src, [m])
    with pytest.raises(TypeError):
        hivm.run(src, [m, "x"])
    with pytest.raises(ValueError):
        hivm.run(src, [m, 1.0], sync="maybe")


FAULTS = os.path.join(ROOT, "tests", "lit", "twin", "Inputs", "faults.cpp")
BUMP = os.path.join(ROOT, "tests", "lit", "twin", "Inputs", "bump_a.cpp")


def one_call(symbol):
    return (
        "func.func @k(%m: memref<16xf32>) {\n"
        "  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, "
        f'symbol = "{symbol}"}} "op" outs(%m : memref<16xf32>)\n'
        "  return\n}\n"
    )


def test_calls_survive_a_crashed_or_stuck_implementation():
    # Calls share one worker process across runs; a crash or a timeout ends
    # it, and the next run gets a fresh one with the same results.
    m = np.zeros(16, np.float32)
    hivm.run(one_call("bump"), [m], impls=[BUMP])
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(one_call("null_deref"), [np.zeros(16, np.float32)], impls=[FAULTS])
    assert "crashed with signal 11" in str(e.value)
    hivm.run(one_call("bump"), [m], impls=[BUMP])
    with pytest.raises(hivm.DiagnosticError) as e:
        hivm.run(one_call("spin"), [np.zeros(16, np.float32)], impls=[FAULTS], timeout=0.2)
    assert "did not return within 0.2 s" in str(e.value)
    for _ in range(50):
        hivm.run(one_call("bump"), [m], impls=[BUMP])
    assert (m == 52).all()


SETV = """#include <cstdint>
#include "value.h"
template <typename T, int R> struct memref_t { T *allocated; T *aligned; int64_t offset; int64_t sizes[R]; int64_t strides[R]; };
extern "C" void _mlir_ciface_setv(memref_t<float, 1> *m) {
  for (int64_t i = 0; i < m->sizes[0]; i++) m->aligned[m->offset + i] = VALUE;
}
"""


def test_a_rebuilt_implementation_is_the_one_called(tmp_path):
    # Changing a header rebuilds the library into the same cache path; the
    # long-lived worker must not keep calling the old one.
    impl = tmp_path / "setv.cpp"
    impl.write_text(SETV)
    for value in (1, 2, 3):
        (tmp_path / "value.h").write_text(f"#define VALUE {value}.0f\n")
        m = np.zeros(16, np.float32)
        hivm.run(one_call("setv"), [m], impls=[impl])
        assert (m == value).all(), (value, m)


def test_a_forked_process_runs_calls_and_leaves_the_parents_worker():
    m = np.zeros(16, np.float32)
    hivm.run(one_call("bump"), [m], impls=[BUMP])
    pid = os.fork()
    if pid == 0:
        try:
            c = np.zeros(16, np.float32)
            hivm.run(one_call("bump"), [c], impls=[BUMP])
            os._exit(0 if (c == 1).all() else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    hivm.run(one_call("bump"), [m], impls=[BUMP])
    assert (m == 2).all()


def test_the_worker_holds_no_descriptor_of_ours():
    import select

    # A fresh worker (a crash ends the current one), forked while we hold a pipe.
    with pytest.raises(hivm.DiagnosticError):
        hivm.run(one_call("null_deref"), [np.zeros(16, np.float32)], impls=[FAULTS])
    r, w = os.pipe()
    try:
        hivm.run(one_call("bump"), [np.zeros(16, np.float32)], impls=[BUMP])
        os.close(w)
        w = None
        ready, _, _ = select.select([r], [], [], 5)
        assert ready and os.read(r, 1) == b"", "the pipe's write end is still open somewhere"
    finally:
        os.close(r)
        if w is not None:
            os.close(w)


def test_calls_from_a_thread_that_ends():
    # The worker is forked off a thread that lives as long as the process, so
    # it outlives the thread that first needed it.
    import threading

    m = np.zeros(16, np.float32)
    with pytest.raises(hivm.DiagnosticError):
        hivm.run(one_call("null_deref"), [np.zeros(16, np.float32)], impls=[FAULTS])
    errors = []

    def first():
        try:
            hivm.run(one_call("bump"), [m], impls=[BUMP])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    t = threading.Thread(target=first)
    t.start()
    t.join()
    assert not errors, errors
    for _ in range(3):
        hivm.run(one_call("bump"), [m], impls=[BUMP])
    assert (m == 4).all()


STORE = (
    "func.func @k(%m: memref<f32>, %x: f32, %n: i32, %o: memref<4xi32>) {\n"
    "  memref.store %x, %m[] : memref<f32>\n"
    "  %c0 = arith.constant 0 : index\n"
    "  memref.store %n, %o[%c0] : memref<4xi32>\n"
    "  return\n}\n"
)


def test_zero_d_arrays_are_memrefs_or_scalars():
    # A 0-d array is a rank-0 memref argument, or a scalar of its own element type.
    m, o = np.array(0.0, np.float32), np.zeros(4, np.int32)
    hivm.run(STORE, [m, 2.5, 7, o])
    assert m == 2.5 and o[0] == 7
    hivm.run(STORE, [m, np.float32(1.5), np.array(9, np.int32), o])
    assert m == 1.5 and o[0] == 9
    with pytest.raises(hivm.DiagnosticError, match=r"argument 2 \(i32\): given i64 data"):
        hivm.run(STORE, [m, 1.0, np.array(9, np.int64), o])


def test_out_of_range_ints_are_refused():
    m, o = np.array(0.0, np.float32), np.zeros(4, np.int32)
    hivm.run(STORE, [m, 1.0, 2**32 - 1, o])
    assert o[0] == -1
    for n in (2**32, -(2**31) - 1, 2**70):
        with pytest.raises(hivm.DiagnosticError, match=r"argument 2 \(i32\): -?\d+ does not fit in 32 bits"):
            hivm.run(STORE, [m, 1.0, n, o])
    assert o[0] == -1


def test_out_of_range_floats_are_refused():
    # 1e300 would round to inf in f32: refused, as out-of-range ints are; inf itself is fine.
    m, o = np.array(0.0, np.float32), np.zeros(4, np.int32)
    with pytest.raises(hivm.DiagnosticError, match=r"argument 1 \(f32\): 1e\+?300 is out of the range of f32"):
        hivm.run(STORE, [m, 1e300, 7, o])
    assert m == 0 and o[0] == 0
    hivm.run(STORE, [m, float("inf"), 7, o])
    assert m == np.inf and o[0] == 7


COPY = (
    "func.func @k(%a: memref<4xi32>, %b: memref<4xi32>, %c: memref<4xi32>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %v = arith.constant 5 : i32\n"
    "  memref.store %v, %a[%c0] : memref<4xi32>\n"
    "  %r = memref.load %b[%c0] : memref<4xi32>\n"
    "  memref.store %r, %c[%c1] : memref<4xi32>\n"
    "  return\n}\n"
)


def test_one_array_given_twice_is_one_memory():
    # As on the device: the store through %a is what %b reads.
    a, c = np.zeros(4, np.int32), np.zeros(4, np.int32)
    hivm.run(COPY, [a, a, c])
    assert list(a) == [5, 0, 0, 0] and list(c) == [0, 5, 0, 0]
    big = np.zeros(8, np.int32)
    with pytest.raises(ValueError, match="arguments 0 and 1 overlap without being the same array"):
        hivm.run(COPY, [big[:4], big[2:6], c])
    hivm.run(COPY, [big[:4], big[4:], c])
    assert list(big) == [5, 0, 0, 0, 0, 0, 0, 0]


def test_read_only_arrays_are_read_and_never_half_written_back():
    ro = np.arange(4, dtype=np.int32)
    ro.flags.writeable = False
    a, c = np.zeros(4, np.int32), np.zeros(4, np.int32)
    hivm.run(COPY, [a, ro, c])
    assert list(a) == [5, 0, 0, 0] and list(c) == [0, 0, 0, 0]
    a, c = np.zeros(4, np.int32), np.zeros(4, np.int32)
    with pytest.raises(hivm.DiagnosticError, match="argument 0: the kernel changed an array that cannot be written back"):
        hivm.run(COPY, [ro, a, c])
    assert list(c) == [0, 0, 0, 0] and list(ro) == [0, 1, 2, 3]


def test_max_ops_stops_a_run_as_on_the_command_line():
    spin = (
        "func.func @k(%m: memref<1xi32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %n = arith.constant 1000000 : index\n"
        "  scf.for %i = %c0 to %n step %c1 {\n"
        "    %v = memref.load %m[%c0] : memref<1xi32>\n"
        "    %one = arith.constant 1 : i32\n    %w = arith.addi %v, %one : i32\n"
        "    memref.store %w, %m[%c0] : memref<1xi32>\n"
        "  }\n  return\n}\n"
    )
    m = np.zeros(1, np.int32)
    with pytest.raises(hivm.DiagnosticError, match=r"stopped after 1000 ops \(--max-ops\)"):
        hivm.run(spin, [m], max_ops=1000)
    assert m[0] == 0
    with pytest.raises(TypeError):
        hivm.run(spin, [m], max_ops=1.5)
    with pytest.raises(ValueError):
        hivm.run(spin, [m], max_ops=-1)


def test_opt_of_an_alias_blow_up_raises():
    # Forty aliases, each the one before twice: ~800 bytes that would print 2^40
    # elements. An exception, at once, rather than an aborted interpreter.
    text = "#a0 = [1, 2]\n" + "".join(f"#a{i} = [#a{i - 1}, #a{i - 1}]\n" for i in range(1, 41))
    text += "func.func private @f() attributes {x = #a40}\n"
    for pipeline in ("", "builtin.module(canonicalize,cse)"):
        with pytest.raises(hivm.DiagnosticError, match=r"<string>:42:1: error: an operation's printed form would"):
            hivm.opt(text, pipeline)


SPIN_KERNEL = (
    "func.func @k(%m: memref<1xi32>) {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
    "  %n = arith.constant 9223372036854775807 : index\n"
    "  scf.for %i = %c0 to %n step %c1 {\n"
    "    %v = memref.load %m[%c0] : memref<1xi32>\n"
    "    %one = arith.constant 1 : i32\n    %w = arith.addi %v, %one : i32\n"
    "    memref.store %w, %m[%c0] : memref<1xi32>\n"
    "  }\n  return\n}\n"
)


def interrupted_after(seconds, run):
    """Runs `run` with a SIGINT sent to this process after `seconds`; returns how long
    after the signal KeyboardInterrupt came."""
    import signal
    import threading
    import time

    sent = []
    timer = threading.Timer(seconds, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


def test_ctrl_c_interrupts_a_run_within_a_second():
    # An endless interpreted loop, then an implementation that never returns (with a
    # 60 s timeout): both stop at once, and the session carries on.
    m = np.zeros(1, np.int32)
    assert interrupted_after(0.3, lambda: hivm.run(SPIN_KERNEL, [m])) < 1.0
    assert m[0] == 0
    spin = lambda: hivm.run(one_call("spin"), [np.zeros(16, np.float32)], impls=[FAULTS], timeout=60)
    assert interrupted_after(1.0, spin) < 1.0
    b = np.zeros(16, np.float32)
    hivm.run(one_call("bump"), [b], impls=[BUMP])
    assert (b == 1).all()


def test_ctrl_c_interrupts_one_long_op_within_a_second():
    # A single structured op that runs for many seconds (a 512^3 linalg.matmul, and
    # the global hivm matmul): the stop is asked inside the op, not only between ops.
    n = 512
    linalg = (
        f"func.func @k(%a: memref<{n}x{n}xf32>, %b: memref<{n}x{n}xf32>, %c: memref<{n}x{n}xf32>) {{\n"
        f"  linalg.matmul ins(%a, %b : memref<{n}x{n}xf32>, memref<{n}x{n}xf32>) outs(%c : memref<{n}x{n}xf32>)\n"
        "  return\n}\n"
    )
    a = np.ones((n, n), np.float32)
    c = np.zeros((n, n), np.float32)
    assert interrupted_after(0.5, lambda: hivm.run(linalg, [a, a, c])) < 1.0
    n = 2048
    cube = (
        f"func.func @k(%a: memref<{n}x{n}xf16>, %b: memref<{n}x{n}xf16>, %c: memref<{n}x{n}xf32>) {{\n"
        "  %t = arith.constant true\n"
        f"  hivm.hir.matmul ins(%a, %b : memref<{n}x{n}xf16>, memref<{n}x{n}xf16>) outs(%c : memref<{n}x{n}xf32>)\n"
        "  return\n}\n"
    )
    a = np.ones((n, n), np.float16)
    c = np.zeros((n, n), np.float32)
    assert interrupted_after(0.5, lambda: hivm.run(cube, [a, a, c])) < 1.0


CTOR = os.path.join(ROOT, "tests", "lit", "twin", "Inputs", "ctor.cpp")


def test_library_constructors_run_only_in_the_worker(monkeypatch):
    # A constructor that exits, faults or aborts ends the call worker, not Python;
    # one that ignores SIGINT leaves Python's Ctrl-C alone.
    import signal
    import time

    def fresh_worker(what):
        # The worker is long-lived and keeps the environment it was forked with:
        # a crash makes the next call fork one that sees HIVM_TEST_CTOR.
        monkeypatch.setenv("HIVM_TEST_CTOR", what)
        with pytest.raises(hivm.DiagnosticError, match="signal 11"):
            hivm.run(one_call("null_deref"), [np.zeros(16, np.float32)], impls=[FAULTS])

    for what, said in (("exit", "exit status 7"), ("segv", "signal 11"), ("abort", "signal 6")):
        fresh_worker(what)
        with pytest.raises(hivm.DiagnosticError, match=said):
            hivm.run(one_call("bump"), [np.zeros(16, np.float32)], impls=[CTOR])
    fresh_worker("ignore-sigint")
    m = np.zeros(16, np.float32)
    hivm.run(one_call("bump"), [m], impls=[CTOR])
    assert (m == 1).all()
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(2)


FORK_IMPL = r"""
#include <stdint.h>
#include <unistd.h>
typedef struct { float *allocated, *aligned; int64_t offset, sizes[1], strides[1]; } m1f;
void _mlir_ciface_slow_f32(m1f *out) { usleep(1500000); for (int64_t i = 0; i < out->sizes[0]; ++i) out->aligned[out->offset + i] = 1.0f; }
void _mlir_ciface_quick_f32(m1f *out) { for (int64_t i = 0; i < out->sizes[0]; ++i) out->aligned[out->offset + i] = 2.0f; }
/* Slow when its output starts at 0, quick otherwise. */
void _mlir_ciface_nap_f32(m1f *out) { if (out->aligned[out->offset] == 0) usleep(1500000); for (int64_t i = 0; i < out->sizes[0]; ++i) out->aligned[out->offset + i] = 2.0f; }
"""

FORK_SCRIPT = r"""
import os, sys, threading, time
import numpy as np, hivm
K = '''func.func @k(%o: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "SYM", source = "IMPL"} "op" outs(%o : memref<8xf32>)
  return
}'''.replace("IMPL", sys.argv[1])
hivm.run(K.replace("SYM", "quick_f32"), [np.zeros(8, np.float32)])
t = threading.Thread(target=lambda: hivm.run(K.replace("SYM", "slow_f32"), [np.zeros(8, np.float32)], timeout=10))
t.start()
time.sleep(0.4)
pid = os.fork()
if pid == 0:
    b = np.zeros(8, np.float32)
    try:
        hivm.run(K.replace("SYM", "quick_f32"), [b], timeout=5)
        os._exit(0 if b[0] == 2.0 else 3)
    except BaseException:
        os._exit(4)
deadline = time.time() + 20
while time.time() < deadline:
    r, st = os.waitpid(pid, os.WNOHANG)
    if r:
        print("child", os.waitstatus_to_exitcode(st))
        break
    time.sleep(0.1)
else:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print("child hung")
t.join()
"""


PREPARED_FORK_SCRIPT = r"""
import os, sys, threading, time
import numpy as np, hivm
K = '''func.func @k(%o: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_S>, symbol = "nap_f32", source = "IMPL"} "op" outs(%o : memref<8xf32>)
  return
}'''.replace("IMPL", sys.argv[1])
kernel = hivm._Prepared(K)
kernel.run([np.ones(8, np.float32)])
t = threading.Thread(target=lambda: kernel.run([np.zeros(8, np.float32)], timeout=10))
t.start()
time.sleep(0.4)
pid = os.fork()
if pid == 0:
    b = np.ones(8, np.float32)
    try:
        kernel.run([b], timeout=5)
        os._exit(0 if b[0] == 2.0 else 3)
    except BaseException:
        os._exit(4)
deadline = time.time() + 20
while time.time() < deadline:
    r, st = os.waitpid(pid, os.WNOHANG)
    if r:
        print("child", os.waitstatus_to_exitcode(st))
        break
    time.sleep(0.1)
else:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print("child hung")
t.join()
b = np.ones(8, np.float32)
kernel.run([b])
print("parent", b[0])
"""


def test_a_process_forked_while_a_prepared_kernel_runs_can_run_it(tmp_path):
    # The prepared kernel's lock is held by the parent's thread at the fork: the
    # child prepares its own instead of waiting for a thread it does not have.
    import subprocess
    import sys

    (tmp_path / "impl.c").write_text(FORK_IMPL)
    (tmp_path / "fork.py").write_text(PREPARED_FORK_SCRIPT)
    r = subprocess.run(
        [sys.executable, str(tmp_path / "fork.py"), str(tmp_path / "impl.c")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "child 0" in r.stdout and "parent 2.0" in r.stdout, r.stdout + r.stderr


def test_a_process_forked_during_a_run_can_run(tmp_path):
    # os.fork while another thread is inside hivm.run: the child inherits the
    # parent's locks held by a thread it does not have; it must still run kernels.
    import subprocess
    import sys

    (tmp_path / "impl.c").write_text(FORK_IMPL)
    (tmp_path / "fork.py").write_text(FORK_SCRIPT)
    r = subprocess.run(
        [sys.executable, str(tmp_path / "fork.py"), str(tmp_path / "impl.c")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "child 0" in r.stdout, r.stdout + r.stderr


COUNT_KERNEL = (
    "func.func @k(%m: memref<1xi32>, %n: index) {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
    "  scf.for %i = %c0 to %n step %c1 {\n"
    "    %v = memref.load %m[%c0] : memref<1xi32>\n"
    "    %one = arith.constant 1 : i32\n    %w = arith.addi %v, %one : i32\n"
    "    memref.store %w, %m[%c0] : memref<1xi32>\n"
    "  }\n  return\n}\n"
)

THREADS_SCRIPT = r"""
import sys, threading
import numpy as np
import hivm

kernel = hivm._Prepared(sys.argv[1])
errors, done = [], []

def launches(t):
    try:
        for i in range(6):
            m = np.zeros(1, np.int32)
            kernel.run([m, 20000 + 1000 * t + i])
            assert m[0] == 20000 + 1000 * t + i, (t, i, m[0])
        done.append(t)
    except BaseException as e:
        errors.append(repr(e))

threads = [threading.Thread(target=launches, args=(t,)) for t in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors and sorted(done) == [0, 1, 2, 3], (errors, done)
print("ok")
"""


def test_threads_launching_one_prepared_kernel_take_turns():
    # Runs of one prepared kernel are serialised; a run waiting for its turn must not hold
    # the GIL, which the running one needs for its Ctrl-C checks (this hung before).
    import sys

    out = subprocess.run(
        [sys.executable, "-c", THREADS_SCRIPT, COUNT_KERNEL], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout + out.stderr
