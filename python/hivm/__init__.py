"""hivm-rs from Python.

``hivm.opt`` runs the compiler driver (parse, verify, a pass pipeline,
print) and ``hivm.run`` runs a kernel on the CPU twin, both in-process.
Errors, and sync problems under ``sync="error"``, raise
``hivm.DiagnosticError`` carrying the diagnostics as ``hivm-opt`` and
``hivm-run`` print them (``file:line:col: error: ...``).
"""

import os
import warnings

__all__ = ["DiagnosticError", "opt", "run", "SyncWarning", "twin_header"]


def _native():
    return __getattr__("_hivm")


def __getattr__(name):
    # The native module loads on first use: the import hook (hivm._al_hook) imports this
    # package at every interpreter start-up and must stay cheap.
    if name in ("_hivm", "DiagnosticError"):
        import importlib

        native = importlib.import_module("hivm._hivm")
        globals()["_hivm"] = native
        globals()["DiagnosticError"] = native.DiagnosticError
        return globals()[name]
    raise AttributeError(f"module 'hivm' has no attribute {name!r}")


class SyncWarning(UserWarning):
    """A sync report of ``hivm.run(..., sync="warn")``."""


def twin_header() -> str:
    """The text of the twin header custom-op implementations are built against."""
    return _native().TWIN_HEADER


def opt(source: str, pipeline: str = "", *, generic: bool = False) -> str:
    """Parses and verifies MLIR ``source``, runs ``pipeline`` (``--pass-pipeline``
    syntax, e.g. ``"builtin.module(one-shot-bufferize,convert-hivm-to-std)"``)
    and returns the printed module (generic form with ``generic=True``)."""
    if not isinstance(source, str):
        raise TypeError("hivm.opt: source must be MLIR text (str)")
    return _native().opt(source, pipeline, bool(generic), "<string>")


def _kernel_text(kernel):
    """(text, file name for diagnostics, directory `source` attributes are relative to)."""
    if isinstance(kernel, os.PathLike) or (isinstance(kernel, str) and "\n" not in kernel and kernel.endswith(".mlir")):
        path = os.fspath(kernel)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise _native().DiagnosticError(f"error: cannot read {path}: {e}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            valid = data[: e.start]
            line = valid.count(b"\n") + 1
            col = len(valid) - (valid.rfind(b"\n") + 1) + 1
            raise _native().DiagnosticError(f"{path}:{line}:{col}: error: input is not valid UTF-8") from None
        return text, path, os.path.dirname(os.path.abspath(path))
    if isinstance(kernel, str):
        return kernel, "<string>", os.getcwd()
    raise TypeError("hivm.run: kernel must be MLIR text or a path to a .mlir file")


def _arg(i, a):
    if isinstance(a, bool):
        return "1" if a else "0"
    if isinstance(a, (int, float)):
        return repr(a) if isinstance(a, float) else str(a)
    iface = getattr(a, "__array_interface__", None)
    if iface is None:
        raise TypeError(f"hivm.run: argument {i} must be a numpy array or a Python int/float, not {type(a).__name__}")
    import numpy as np

    arr = np.ascontiguousarray(a)
    return (arr.dtype.str, [int(d) for d in arr.shape], arr.tobytes())


def run(kernel, args, *, entry=None, impls=(), blocks=1, sync="error", timeout=None, sync_solver=False):
    """Runs ``kernel`` (MLIR text or a path) on the CPU twin.

    ``args`` are the entry function's arguments: numpy arrays for memref
    arguments (read, and written back in place) and Python ints/floats for
    scalars. ``impls`` are implementation sources (as ``hivm-run --impl``);
    ``blocks`` runs that many blocks; ``sync`` is ``"error"`` (sync problems
    raise DiagnosticError) or ``"warn"`` (they become SyncWarning warnings);
    ``timeout`` bounds each implementation call in seconds; ``sync_solver``
    runs the GraphSyncSolver first, as ``hivm-run --sync-solver``.
    """
    if sync not in ("error", "warn"):
        raise ValueError('hivm.run: sync must be "error" or "warn"')
    text, file, base = _kernel_text(kernel)
    packed = [_arg(i, a) for i, a in enumerate(args)]
    results, reports = _native().run(
        text,
        file,
        base,
        packed,
        entry,
        [os.fspath(p) for p in impls],
        int(blocks),
        30.0 if timeout is None else float(timeout),
        sync == "error",
        bool(sync_solver),
    )
    for r in reports:
        warnings.warn(r.rstrip(), SyncWarning, stacklevel=2)
    for a, data in zip(args, results):
        if data is None or getattr(a, "__array_interface__", None) is None:
            continue
        import numpy as np

        out = np.frombuffer(data, dtype=np.asarray(a).dtype).reshape(np.shape(a))
        np.copyto(a, out)
