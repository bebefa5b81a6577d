"""``al.custom`` under Triton's interpreter (``TRITON_INTERPRET=1``): the op runs on the
CPU twin.

One call becomes a small device kernel: the operands arrive in global memory, those the
op's pipes read from or write to on chip are loaded into UB buffers, the custom op runs
(its C/C++ implementation built for the host against the twin header), outs are stored
back, and the GraphSyncSolver places the synchronisation. The twin checks the pipes, the
macro's slots, buffer bounds and faults; any report fails the call.

A pointer operand stays in global memory: the op gets the kernel argument it points into,
from the pointer to its end (TritonToLinalg's ``memref<?xT>``), and writes through it land
there. The builtins AscendNPU-IR implements (gather_load, index_select) run natively.
"""

import os
import pathlib

from .enums import PIPE
from .op import (
    _quote,
    align_dims,
    attributes,
    bind,
    dict_text,
    hint_of,
    instantiate,
    is_macro,
    mlir_dtype,
    normalise_call,
    op_kind,
    outs_of,
    result_of,
    scalar_dtype,
)

_SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c")


class CustomOpError(RuntimeError):
    """An ``al.custom`` call the CPU twin rejected; the message names the op and carries
    the twin's report."""

    # Triton's interpreter re-raises every error of a kernel as InterpreterError(repr(e))
    # `from e`, so a traceback prints this error and then that one. The report goes into
    # the InterpreterError whole and unescaped (repr is the message itself), and this
    # error prints its first line only, so that the report is printed once, last, and
    # `str()` of what the caller catches holds it. Raised as it is (Triton's
    # front_end_debugging), the error prints in full.
    def __repr__(self):
        return super().__str__()

    def __str__(self):
        text = super().__str__()
        if "\n" not in text or _front_end_debugging():
            return text
        return text.split("\n", 1)[0] + " (the twin's report follows)"


def _front_end_debugging():
    try:
        import triton

        return bool(triton.knobs.compilation.front_end_debugging)
    except (ImportError, AttributeError):
        return True


_PACKAGE_DIRS = None


def call_site():
    """(file, line) of the kernel's ``al.custom`` call: the innermost frame outside hivm
    and Triton. None when there is none (a call from this package's own code)."""
    import sys

    global _PACKAGE_DIRS
    if _PACKAGE_DIRS is None:
        import triton

        _PACKAGE_DIRS = tuple(
            os.path.join(os.path.dirname(os.path.abspath(m.__file__)), "")
            for m in (sys.modules["hivm"], triton)
        )
    f = sys._getframe(1)
    while f is not None:
        name = os.path.abspath(f.f_code.co_filename)
        if not name.startswith(_PACKAGE_DIRS) and not f.f_code.co_filename.startswith("<"):
            return f.f_code.co_filename, f.f_lineno
        f = f.f_back
    return None


_FALLBACK_DUMP = None


def _error_dump_folder():
    """A private folder (made once per process) for the modules of failed calls when
    ``HIVM_DUMP`` is not set."""
    global _FALLBACK_DUMP
    if _FALLBACK_DUMP is None:
        import tempfile

        _FALLBACK_DUMP = tempfile.mkdtemp(prefix="hivm-dump-")
    return _FALLBACK_DUMP


def _dump_name(name, site):
    """``al.custom-NAME-FILE-LINE``: which call the module is of."""
    import re

    where = f"-{pathlib.Path(site[0]).stem}-{site[1]}" if site else ""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"al.custom-{name}{where}")


def accept_numpy_arguments():
    """Lets kernels launched under Triton's interpreter take numpy arrays as well as torch
    CPU tensors: an array is handed over as a tensor sharing its memory, so what the
    kernel stores lands in the array. Only with this stand-in, never with triton-ascend."""
    try:
        from triton.runtime import interpreter
    except ImportError:
        return
    init = interpreter.GridExecutor._init_args_hst
    if getattr(init, "_hivm_numpy", False):
        return

    def init_args_hst(self, args_dev, kwargs):
        import numpy as np

        def shared(a):
            if isinstance(a, np.ndarray):
                import torch

                return torch.from_numpy(a if a.flags.c_contiguous else _contiguous(a))
            return a

        return init(self, [shared(a) for a in args_dev], {k: shared(v) for k, v in kwargs.items()})

    init_args_hst._hivm_numpy = True
    interpreter.GridExecutor._init_args_hst = init_args_hst


def _contiguous(a):
    raise CustomOpError("a numpy array passed to a kernel must be C-contiguous (the kernel writes into it)")


def in_interpreter(args, kwargs) -> bool:
    """True inside a kernel run by Triton's interpreter: its tensors hold numpy data."""
    values = list(args) + list(kwargs.values())
    for v in values:
        for x in v if isinstance(v, (list, tuple)) else [v]:
            if type(getattr(x, "handle", None)).__name__ == "TensorHandle":
                return True
    return False


def implementation(op) -> pathlib.Path:
    """The C/C++ file the twin builds: ``source`` when it names a file, else a file with
    the bitcode's stem beside it (``add.bc`` -> ``add.cpp``)."""
    looked = []
    source = getattr(op, "source", None)
    if source:
        p = pathlib.Path(os.fspath(source))
        if p.is_file():
            return p.absolute()
        looked.append(str(p))
    bitcode = getattr(op, "bitcode", None)
    if bitcode:
        stem = pathlib.Path(os.fspath(bitcode)).absolute().with_suffix("")
        for suffix in _SOURCE_SUFFIXES:
            p = stem.with_suffix(suffix)
            if p.is_file():
                return p
            looked.append(str(p))
    raise CustomOpError(
        f"al.custom('{op.name}'): no implementation for the CPU twin (looked for "
        + (", ".join(looked) or "a `source` or `bitcode` attribute")
        + "); set `source` to the C/C++ file"
    )


# Builtins the IR (and so the twin) knows; the others triton-ascend registers have no
# implementation in AscendNPU-IR and fail its verifier on the NPU too.
_TWIN_BUILTINS = ("__builtin_gather_load", "__builtin_index_select")


def _launch_storages():
    """(address, size in bytes) of the storage of every tensor argument of the kernel
    launch in progress: the memory Triton's interpreter hands the kernel as pointers."""
    import sys

    from triton.runtime.interpreter import GridExecutor

    code = GridExecutor.__call__.__code__
    f = sys._getframe(1)
    while f is not None and f.f_code is not code:
        f = f.f_back
    if f is None or "args_hst" not in f.f_locals:
        raise CustomOpError("pointer operands need Triton's interpreter (TRITON_INTERPRET=1): no kernel launch found")
    found = []

    def visit(x):
        if isinstance(x, (list, tuple)):
            for y in x:
                visit(y)
        elif hasattr(x, "untyped_storage"):
            st = x.untyped_storage()
            found.append((st.data_ptr(), st.nbytes()))

    visit(f.f_locals["args_hst"])
    visit(list(f.f_locals.get("kwargs_hst", {}).values()))
    return found


def _pointed_array(v, what):
    """A numpy view of the memory a scalar pointer points to, up to the end of the
    kernel argument it points into (as TritonToLinalg's ``memref<?xT>``): what the op
    writes through it lands in the argument."""
    import ctypes

    import numpy as np
    from triton.runtime.interpreter import _get_np_dtype

    if v.type.is_block():
        raise CustomOpError(f"{what}: a block of pointers is not supported by the CPU twin; pass the base pointer")
    addr = int(np.asarray(v.handle.data).reshape(-1)[0])
    dtype = _get_np_dtype(v.dtype.element_ty)
    for base, size in _launch_storages():
        if base <= addr < base + size:
            count = (base + size - addr) // dtype.itemsize
            raw = (ctypes.c_char * (count * dtype.itemsize)).from_address(addr)
            return np.frombuffer(raw, dtype=dtype, count=count)
    raise CustomOpError(f"{what}: the pointer {addr:#x} points into no tensor argument of the kernel")


def _fill_constant(arr, elem):
    """The MLIR literal of the value filling ``arr`` when every element is the same
    (floats by their bits, so nothing is rounded), else None."""
    flat = arr.reshape(-1)
    if flat.size == 0 or not (flat.view(f"u{flat.itemsize}") == flat[:1].view(f"u{flat.itemsize}")).all():
        return None
    if elem == "i1":
        return "true" if bool(flat[0]) else "false"
    if elem.startswith("i"):
        return str(int(flat[0]))
    if elem in ("f16", "f32", "f64"):
        return "0x" + format(int(flat[:1].view(f"u{flat.itemsize}")[0]), f"0{flat.itemsize * 2}X")
    return None


def _spaces(op):
    """(space of ins, space of outs): global memory where the pipe moves data from or to
    it (MTE2 reads GM, MTE3 writes GM), else UB."""
    pin, pout = (op.pipe[0], op.pipe[1]) if is_macro(op) else (op.pipe, op.pipe)
    for p in (pin, pout):
        if p not in (PIPE.PIPE_V, PIPE.PIPE_S, PIPE.PIPE_MTE2, PIPE.PIPE_MTE3):
            raise CustomOpError(
                f"al.custom('{op.name}'): the CPU twin runs vector-core ops (PIPE_V, PIPE_S, PIPE_MTE2, "
                f"PIPE_MTE3), not {p.value} yet"
            )
    return ("gm" if pin is PIPE.PIPE_MTE2 else "ub"), ("gm" if pout is PIPE.PIPE_MTE3 else "ub")


def run_custom(name, args, kwargs):
    """Runs one call on the twin and returns what triton-ascend returns: None, the out
    tensor, or a ``tl.tuple`` of them."""
    import numpy as np
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    import hivm

    name, args, kwargs = normalise_call(name, args, kwargs)
    op = instantiate(name, args, kwargs)
    builtin = name.startswith("__builtin_")
    if builtin and name not in _TWIN_BUILTINS:
        raise CustomOpError(
            f"al.custom('{name}'): AscendNPU-IR has no implementation of this builtin (it knows "
            + ", ".join(_TWIN_BUILTINS)
            + ", and two made by its own passes), so it fails on the NPU too"
        )
    attrs = attributes(op, bitcode_must_exist=False)
    # align_dim's keys are checked as triton-ascend checks them when it compiles; the
    # twin checks the dims against the operands as the NPU build does.
    arg_attrs = align_dims(op)
    if any(arg_attrs):
        attrs["arg_attrs"] = "[" + ", ".join(dict_text(d) for d in arg_attrs) + "]"
    if not builtin:
        impl = implementation(op)
        attrs["source"] = _quote(impl)
    outs = outs_of(kwargs)
    in_space, out_space = _spaces(op)

    # Kernel parameters and the values passed for them; the op's operands by segment;
    # the kernel body before and after the op; which parameters hold the outs.
    params, call_args, body, stores, out_params = [], [], [], [], []
    operands = {"ins": [], "outs": []}
    segments = (("ins", bind(op, args, kwargs), in_space), ("outs", [(None, o) for o in outs], out_space))
    for group, values, space in segments:
        for pname, v in values:
            i = len(params)
            if isinstance(v, tl.core.tensor) and v.dtype.is_ptr():
                # Global memory as it is, whatever the pipe: the op reads or writes it
                # through the pointer.
                arr = _pointed_array(v, f"al.custom('{name}') operand {i}")
                gm_ty = f"memref<?x{mlir_dtype(v.dtype.element_ty)}, #hivm.address_space<gm>>"
                params.append(f"%a{i}: {gm_ty}")
                call_args.append(arr)
                operands[group].append((f"%a{i}", gm_ty))
                continue
            if isinstance(v, tl.core.tensor) and v.type.is_block():
                arr = np.ascontiguousarray(v.handle.data)
                elem = mlir_dtype(v.dtype)
                shape = "x".join(str(d) for d in arr.shape)
                gm_ty = f"memref<{shape}x{elem}, #hivm.address_space<gm>>"
                params.append(f"%a{i}: {gm_ty}")
                call_args.append(arr.copy())
                if group == "outs":
                    out_params.append(i)
                if space == "gm":
                    operands[group].append((f"%a{i}", gm_ty))
                    continue
                ub_ty = f"memref<{shape}x{elem}, #hivm.address_space<ub>>"
                body.append(f"    %u{i} = memref.alloc() : {ub_ty}")
                fill = _fill_constant(arr, elem) if group == "outs" else None
                if fill is not None:
                    # An out made by tl.full is a broadcast on PIPE_V, as the NPU compile
                    # makes it, not a load: the sync the solver places matches that build.
                    body.append(f"    %c{i} = arith.constant {fill} : {elem}")
                    body.append(f"    hivm.hir.vbrc ins(%c{i} : {elem}) outs(%u{i} : {ub_ty})")
                else:
                    body.append(f"    hivm.hir.load ins(%a{i} : {gm_ty}) outs(%u{i} : {ub_ty})")
                operands[group].append((f"%u{i}", ub_ty))
                if group == "outs":
                    stores.append(f"    hivm.hir.store ins(%u{i} : {ub_ty}) outs(%a{i} : {gm_ty})")
            elif group == "ins":
                if isinstance(v, tl.core.tensor):
                    # A scalar tensor keeps its own type unless a dtype hint casts it.
                    hint = hint_of(op, pname)
                    dtype = str(hint) if type(hint).__name__ == "dtype" else str(v.dtype)
                    v = v.handle.data.item()
                else:
                    dtype = scalar_dtype(v, hint_of(op, pname))
                ty = mlir_dtype(dtype)
                params.append(f"%a{i}: {ty}")
                call_args.append(float(v) if ty.startswith(("f", "bf")) else int(v))
                operands[group].append((f"%a{i}", ty))
            else:
                raise CustomOpError(
                    f"al.custom('{name}') operand {i}: an out must be a tensor, not {type(v).__name__}"
                )

    def segment(key):
        vals = operands[key]
        if not vals:
            return ""
        return f" {key}({', '.join(v for v, _ in vals)} : {', '.join(t for _, t in vals)})"

    body.append(f"    {op_kind(op)} {dict_text(attrs)} {_quote(name)}{segment('ins')}{segment('outs')}")
    kernel = "\n".join(
        [
            'module attributes {hacc.target = #hacc.target<"Ascend910B3">} {',
            f"  func.func @al_custom({', '.join(params)})",
            "      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {",
            *body,
            *stores,
            "    return",
            "  }",
            "}",
            "",
        ]
    )
    site = call_site()
    dump_name = _dump_name(name, site)
    folder = hivm.dump_folder()
    try:
        hivm.run(kernel, call_args, sync="error", sync_solver=True, dump=folder, dump_name=dump_name)
    except hivm.DiagnosticError as e:
        report = str(e)
        if folder is None:
            # The module is written now, with the inputs it failed on (a failed run writes
            # nothing back), so that the
            # report's `<string>:LINE:COL` can name a file the author can open and run.
            path = hivm.write_dump(_error_dump_folder(), dump_name, kernel, call_args, sync_solver=True)
            report = report.replace("<string>:", f"{path}:")
        else:
            path = os.path.join(folder, dump_name + ".mlir")
        where = f"{site[0]}:{site[1]}: " if site else ""
        raise CustomOpError(
            f"{where}al.custom('{name}') failed on the CPU twin (the module it ran: {path})\n{report}"
        ) from None

    results = []
    for o, i in zip(outs, out_params):
        data = call_args[i].astype(o.handle.data.dtype, copy=False)
        results.append(tl.core.tensor(TensorHandle(data, o.handle.dtype), o.type))
    return result_of(results)
