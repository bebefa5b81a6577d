"""hivm-rs from Python.

``hivm.opt`` runs the compiler driver (parse, verify, a pass pipeline,
print) and ``hivm.run`` runs a kernel on the CPU twin, both in-process.
Errors, and sync problems under ``sync="error"``, raise
``hivm.DiagnosticError`` carrying the diagnostics as ``hivm-opt`` and
``hivm-run`` print them (``file:line:col: error: ...``).
"""

import os
import warnings

__all__ = ["DiagnosticError", "include_dir", "opt", "run", "SyncWarning", "twin_header"]


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


def include_dir() -> str:
    """The folder holding ``hivm_twin.h``, the header custom-op implementations are built
    against (installed with the package), for editors and ``clang -I``/``-include``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


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


def _scalar(i, a):
    if isinstance(a, bool):
        return "1" if a else "0"
    if isinstance(a, (int, float)):
        return repr(a) if isinstance(a, float) else str(a)
    raise TypeError(f"hivm.run: argument {i} must be a numpy array or a Python int/float, not {type(a).__name__}")


def _pack(args):
    """The arguments as the native module takes them: arrays as (dtype, shape, bytes)
    (0-d ones too), scalars as text, and an array given again as the index of its
    first occurrence, so the kernel sees one memory as a device kernel given one
    pointer twice does. Arrays that overlap without being the same view are refused:
    the twin could not keep both views' writes."""
    packed, arrays = [], []
    for i, a in enumerate(args):
        if getattr(a, "__array_interface__", None) is None:
            packed.append(_scalar(i, a))
            continue
        import numpy as np

        arr = np.asarray(a)
        # The bytes a contiguous array spans: arrays whose spans are apart share
        # nothing, and only where spans meet is the exact test needed.
        start = arr.__array_interface__["data"][0]
        lo, hi = (start, start + arr.nbytes) if arr.flags.c_contiguous else (0, float("inf"))
        alias = None
        for j, other, olo, ohi in arrays:
            if hi <= olo or ohi <= lo or not np.shares_memory(arr, other):
                continue
            same = (
                start == other.__array_interface__["data"][0]
                and arr.shape == other.shape
                and arr.strides == other.strides
                and arr.dtype == other.dtype
            )
            if not same:
                raise ValueError(
                    f"hivm.run: arguments {j} and {i} overlap without being the same array; "
                    "pass separate arrays, or the same array twice"
                )
            alias = j
            break
        if alias is not None:
            packed.append(alias)
            continue
        arrays.append((i, arr, lo, hi))
        c = np.asarray(arr, order="C")
        packed.append((c.dtype.str, [int(d) for d in c.shape], c.tobytes()))
    return packed


def _write_back(args, packed, results):
    """Copies the final contents into the arrays, all or none: an array that cannot
    be written (read-only, or a numpy scalar) must come back unchanged."""
    import numpy as np

    updates = []
    for i, (a, p, data) in enumerate(zip(args, packed, results)):
        if data is None or not isinstance(p, tuple) or data == p[2]:
            # A scalar, a second view of an array, or bytes the kernel left as they were.
            continue
        arr = np.asarray(a)
        out = np.frombuffer(data, dtype=arr.dtype).reshape(arr.shape)
        if isinstance(a, np.ndarray) and a.flags.writeable:
            updates.append((a, out))
        else:
            raise _native().DiagnosticError(
                f"error: argument {i}: the kernel changed an array that cannot be written back "
                f"({'read-only' if isinstance(a, np.ndarray) else type(a).__name__}); nothing was written back"
            )
    for a, out in updates:
        np.copyto(a, out)


def write_dump(folder, name, text, args, *, entry=None, impls=(), blocks=1, sync="error", sync_solver=False,
               part_alone=False):
    """Writes the module a run runs as ``folder/name.mlir``, its array arguments as
    ``name.argN.npy`` beside it, and, as the file's first lines, the ``hivm-run`` command
    that runs it by itself. Returns the module's path."""
    import numpy as np

    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".mlir")
    cmd = ["hivm-run", path]
    if entry:
        cmd += ["--entry", entry]
    for p in impls:
        cmd += ["--impl", os.path.abspath(os.fspath(p))]
    for i, a in enumerate(args):
        if getattr(a, "__array_interface__", None) is None:
            cmd += ["--arg", _scalar(i, a)]
            continue
        npy = os.path.join(folder, f"{name}.arg{i}.npy")
        np.save(npy, np.asarray(a))
        cmd += ["--arg", npy]
    if blocks != 1:
        cmd += ["--blocks", str(blocks)]
    if sync_solver:
        cmd += ["--sync-solver"]
    if part_alone:
        cmd += ["--part-alone"]
    if sync != "error":
        cmd += ["--sync", sync]
    import shlex

    # At the end, so that the module's line numbers stay those of the text that ran.
    trailer = "// Written by hivm (HIVM_DUMP / dump=); runs by itself with:\n// " + shlex.join(cmd) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + ("" if text.endswith("\n") else "\n") + trailer)
    return path


def _absolute_sources(text, base):
    """``source = "rel/impl.cpp"`` attributes made absolute (relative to ``base``)."""
    import re

    def absolute(m):
        p = m.group(2)
        if os.path.isabs(p):
            return m.group(0)
        prefix = os.path.join(base, "").replace("\\", "\\\\").replace('"', '\\"')
        return m.group(1) + prefix + p + '"'

    return re.sub(r'(\bsource = ")((?:[^"\\]|\\.)*)"', absolute, text)


def dump_folder(dump=None):
    """Where runs write their modules: ``dump``, else ``$HIVM_DUMP``, else None."""
    folder = dump if dump is not None else os.environ.get("HIVM_DUMP") or None
    return os.fspath(folder) if folder is not None else None


def run(kernel, args, *, entry=None, impls=(), blocks=1, sync="error", timeout=None, sync_solver=False, max_ops=None,
        dump=None, dump_name=None, part_alone=False):
    """Runs ``kernel`` (MLIR text or a path) on the CPU twin.

    ``args`` are the entry function's arguments: numpy arrays for memref
    arguments (read, and written back in place) and Python ints/floats for
    scalars. ``impls`` are implementation sources (as ``hivm-run --impl``);
    ``blocks`` runs that many blocks; ``sync`` is ``"error"`` (sync problems
    raise DiagnosticError) or ``"warn"`` (they become SyncWarning warnings);
    ``timeout`` bounds each implementation call in seconds; ``sync_solver``
    runs the GraphSyncSolver first, as ``hivm-run --sync-solver``; ``max_ops``
    stops the run after that many ops, as ``hivm-run --max-ops``; ``part_alone`` runs one
    core's part of a split mix kernel by itself, its cross-core handshakes taken as met
    (each a SyncWarning), as ``hivm-run --part-alone``. ``dump`` (default:
    ``$HIVM_DUMP``) is a folder to write the module to before it runs, as
    ``DUMP_NAME.mlir`` (default: the kernel file's stem, or ``run``), with its array
    arguments as ``.npy`` files and the ``hivm-run`` command that runs it by itself;
    diagnostics then name that file.

    The same array may be given twice (the kernel sees one memory); arrays that
    only partly overlap are refused. Read-only arrays are read; a kernel that
    changes one raises, and then no array is written back.
    """
    if sync not in ("error", "warn"):
        raise ValueError('hivm.run: sync must be "error" or "warn"')
    if max_ops is not None and (isinstance(max_ops, bool) or not isinstance(max_ops, int)):
        raise TypeError("hivm.run: max_ops must be an int")
    if max_ops is not None and not 0 <= max_ops < 2**64:
        raise ValueError("hivm.run: max_ops must be from 0 to 2**64 - 1")
    text, file, base = _kernel_text(kernel)
    args = list(args)
    packed = _pack(args)
    folder = dump_folder(dump)
    if folder is not None:
        if dump_name is None:
            dump_name = os.path.splitext(os.path.basename(file))[0] if file != "<string>" else "run"
        # The file runs as written (its line numbers are the diagnostics'), with `source`
        # paths made absolute so that it runs from the dump folder too.
        text = _absolute_sources(text, base)
        file = write_dump(
            folder, dump_name, text, args, entry=entry, impls=impls, blocks=int(blocks), sync=sync,
            sync_solver=bool(sync_solver), part_alone=bool(part_alone),
        )
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
        max_ops,
        bool(part_alone),
    )
    for r in reports:
        warnings.warn(r.rstrip(), SyncWarning, stacklevel=2)
    _write_back(args, packed, results)


# Prepared kernels a forked process inherited (see _Prepared.run).
_INHERITED = []


class _Prepared:
    """A kernel parsed, verified and brought to what the twin runs once, for many runs
    (``hivm.triton``'s compiled launches): each run then costs only the run itself.
    ``run`` behaves as ``hivm.run`` with the kernel given at construction."""

    def __init__(self, text, file="<string>", base=None):
        self._source = (text, file, base or os.getcwd())
        self._pid = os.getpid()
        self._kernel = _native().Kernel(*self._source, None, False)

    def run(self, args, *, blocks=1, sync="error", timeout=None, stacklevel=2):
        if self._pid != os.getpid():
            # Inherited through os.fork: a thread of the parent may have been running
            # it (its lock held, its state mid-run), so this process prepares its own.
            # The inherited one is kept, never freed or touched here.
            _INHERITED.append(self._kernel)
            self._kernel = _native().Kernel(*self._source, None, False)
            self._pid = os.getpid()
        args = list(args)
        packed = _pack(args)
        results, reports = self._kernel.run(
            packed, [], int(blocks), 30.0 if timeout is None else float(timeout), sync == "error", None
        )
        for r in reports:
            warnings.warn(r.rstrip(), SyncWarning, stacklevel=stacklevel)
        _write_back(args, packed, results)
