"""``hivm.triton.compile``: a Triton kernel's TTIR with its ``al.custom`` calls as the
``hivm.hir.custom`` / ``hivm.hir.custom_macro`` ops triton-ascend emits. Triton's own front
end and TTIR stage run (no GPU needed: the stages are taken from Triton's CUDA backend,
whose TTIR passes are target independent)."""

import collections
import os
import re
import threading

_CALL = re.compile(r"^(\s*)(%[^=]+= )?tt\.call @(__hivm_al_custom_\d+)\((.*?)\) : \((.*?)\) -> (.*?)( loc\(.*\))?$")
_DECL = re.compile(r"^\s*tt\.func private @__hivm_al_custom_\d+\(")


def _split_top(text):
    """Splits a comma-separated list at nesting depth 0 (types like ``!tt.ptr<f32, 1>``)."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _rewrite(ttir, emitted):
    lines = []
    for line in ttir.splitlines():
        if _DECL.match(line):
            continue
        m = _CALL.match(line)
        if m is None or m.group(3) not in emitted:
            lines.append(line)
            continue
        indent, results, fname, operands, types, result_types, loc = m.groups()
        kind, name, attrs, n_ins, call_loc = emitted[fname]
        values, tys = _split_top(operands), _split_top(types)
        text = f"{indent}{results or ''}{kind} {attrs} \"{name}\""
        if n_ins:
            text += f" ins({', '.join(values[:n_ins])} : {', '.join(tys[:n_ins])})"
        if len(values) > n_ins:
            text += f" outs({', '.join(values[n_ins:])} : {', '.join(tys[n_ins:])})"
        if result_types.strip() != "()":
            text += f" -> {result_types.strip()}"
        # The call's place in the kernel's Python source: the placeholder call itself has
        # the kernel function's location (it is made with the builder moved beside it).
        lines.append(text + (call_loc or loc or ""))
    return "\n".join(lines) + "\n"


_STAGES = ("ttir", "linalg", "hivm")

# What triton-ascend's backend does after TTIR (compile-path §1): the linalg conversion with
# named elementwise ops and a local (not global) kernel; the backend then marks the target.
LINALG_PIPELINE = "builtin.module(triton-to-linalg{global-kernel=false named-ops=true})"
DEFAULT_TARGET = "Ascend910B3"


def _jit_function(kernel):
    """The ``JITFunction`` behind ``kernel``. Under Triton's interpreter (``HIVM_TWIN=1`` sets
    ``TRITON_INTERPRET``) ``@triton.jit`` gives an ``InterpretedFunction``, which Triton's front
    end cannot compile; a ``JITFunction`` of the same Python function can."""
    from triton.runtime.jit import JITFunction

    if isinstance(kernel, JITFunction):
        return kernel
    fn = getattr(kernel, "fn", None)
    if fn is None or not callable(fn):
        raise TypeError(f"hivm.triton.compile: expected a @triton.jit kernel, got {type(kernel).__name__}")
    # Made once per Python function: building one reads and parses its source.
    jit = _JITS.get(fn)
    if jit is None:
        jit = _JITS[fn] = JITFunction(fn)
    return jit


_JITS = {}


def _divisibility(jit, signature, constexprs):
    """Pointer parameters marked 16-byte divisible, as a launch with aligned tensors specializes them."""
    attrs = {}
    for i, name in enumerate(jit.arg_names):
        if name in (constexprs or {}):
            continue
        if str(signature.get(name, "")).startswith("*"):
            attrs[(i,)] = [["tt.divisibility", 16]]
    return attrs


def compile(kernel, signature: dict, constexprs: dict = None, stage: str = "ttir", target: str = DEFAULT_TARGET) -> str:
    """``kernel`` (a ``@triton.jit`` function) compiled to ``stage``: ``"ttir"``, Triton's IR with
    each ``al.custom`` call as the op triton-ascend emits; ``"linalg"``, that module after
    ``triton-to-linalg`` as triton-ascend hands it to bishengir-compile (with ``hacc.target``,
    which its backend adds); or ``"hivm"``, that module compiled as ``hivm-compile`` does
    (bishengir-compile's front half: HFusion, HIVM, bufferization, memory plan, sync solver). ``signature`` and ``constexprs`` are as Triton's ``ASTSource`` takes
    them, e.g. ``{"x_ptr": "*fp32", "n": "i32", "L": "constexpr"}`` and ``{"L": 32}``."""
    import os

    if stage not in _STAGES:
        raise ValueError(f"hivm.triton.compile: stage must be one of {', '.join(map(repr, _STAGES))}, not {stage!r}")
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend

    from .al import emit

    jit = _jit_function(kernel)
    src = ASTSource(jit, signature, constexprs=constexprs or {}, attrs=_divisibility(jit, signature, constexprs))
    gpu = GPUTarget("cuda", 80, 32)
    backend = make_backend(gpu)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    options = backend.parse_options({})
    module = src.make_ir(gpu, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
    stages = {}
    backend.add_stages(stages, options, src.language)
    module = stages["ttir"](module, {})
    ttir = _rewrite(str(module), emit.EMITTED)
    if stage == "ttir":
        return ttir
    return _lower(ttir, jit.__name__, stage, target, debuginfo=False)


def _lower(ttir, name, stage, target, debuginfo):
    """TTIR to ``stage`` (linalg or hivm); with ``debuginfo`` each op keeps its location (the
    kernel's Python line) in the text, so the twin's reports name it."""
    from . import _native

    linalg = _native().opt(ttir, LINALG_PIPELINE, False, f"<{name} at stage ttir>", debuginfo)
    linalg = _with_target(linalg.rstrip("\n") + "\n", target)
    if stage == "linalg":
        return linalg
    return _native().compile(linalg, f"<{name} at stage linalg>", None, False, debuginfo)


def _with_target(text: str, target: str) -> str:
    """``hacc.target`` on the module, as triton-ascend's backend sets it (after any aliases)."""
    attr = f'hacc.target = #hacc.target<"{target}">'
    m = re.search(r"^module( attributes \{)?", text, flags=re.M)
    if m is None:
        raise ValueError("hivm.triton.compile: no module in the converted text")
    if m.group(1):
        return text[: m.end()] + attr + ", " + text[m.end():]
    return text[: m.start()] + f"module attributes {{{attr}}}" + text[m.end():]


_NP_SIG = {
    "float32": "fp32",
    "float16": "fp16",
    "float64": "fp64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "i1",
}


_PTR_SIG = {}


def _signature_of(jit, args, constexprs):
    """Triton's signature for a launch with numpy arrays (pointers) and Python scalars."""
    names = [n for n in jit.arg_names if n not in constexprs]
    if len(names) != len(args):
        raise TypeError(f"hivm.triton.launch: {jit.__name__} takes {len(names)} non-constexpr arguments, got {len(args)}")
    sig = {}
    for name, a in zip(names, args):
        dtype = getattr(a, "dtype", None)
        if dtype is not None and getattr(a, "ndim", 0) > 0:
            # By the dtype itself: its name is slow to make, and this runs at every launch.
            ptr = _PTR_SIG.get(dtype)
            if ptr is None:
                if str(dtype) not in _NP_SIG:
                    raise TypeError(f"hivm.triton.launch: argument {name!r} has dtype {dtype}, which has no Triton pointer type")
                ptr = _PTR_SIG[dtype] = "*" + _NP_SIG[str(dtype)]
            sig[name] = ptr
        elif isinstance(a, bool):
            sig[name] = "i1"
        elif isinstance(a, int):
            sig[name] = "i32" if -(2**31) <= a < 2**31 else "i64"
        elif isinstance(a, float):
            sig[name] = "fp32"
        else:
            raise TypeError(f"hivm.triton.launch: argument {name!r}: expected a numpy array or a Python scalar, not {type(a).__name__}")
    for c in constexprs:
        sig[c] = "constexpr"
    return sig


_SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c")
_BITCODE = re.compile(r'bitcode = "([^"]*)"')


def _with_sources(text):
    """Each custom op's implementation for the twin: beside its bitcode, with the bitcode's stem
    (``add.bc`` -> ``add.cpp``), as the interpreter path finds it."""
    import pathlib

    def add_source(m):
        stem = pathlib.Path(m.group(1)).with_suffix("")
        for suffix in _SOURCE_SUFFIXES:
            p = stem.with_suffix(suffix)
            if p.is_file():
                return f'{m.group(0)}, source = "{p}"'
        return m.group(0)

    return _BITCODE.sub(add_source, text)


_COMPILED = {}
# Prepared kernels by (compile key, working folder), the most recently used last; a
# session that compiles many kernels keeps the last _PREPARED_MAX of them.
_PREPARED = collections.OrderedDict()
_PREPARED_MAX = 64
_PREPARED_LOCK = threading.Lock()


def _forget_prepared_in_child():
    # A forked child has one thread: a lock another thread of the parent held stays
    # held, so the child takes a new one. Its prepared kernels prepare afresh on
    # first use (hivm._Prepared.run).
    global _PREPARED_LOCK
    _PREPARED_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forget_prepared_in_child)


def _entry_arity(text):
    """The number of arguments of the module's first defined function."""
    m = re.search(r"func\.func (?:public )?@[\w$.]+\(", text)
    if m is None:
        raise RuntimeError("hivm.triton.launch: no function in the compiled kernel")
    depth, i, count = 1, m.end(), 0
    while depth and i < len(text):
        c = text[i]
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "%" and depth == 1:
            count += 1
        i += 1
    return count
_FFTS = re.compile(r"func\.func @\w+\(%arg0: i64 \{hacc\.arg_type = #hacc\.arg_type<ffts_base_address>\}")


def launch(kernel, grid, *args, constexprs=None, stage="linalg", sync="error", dump=None):
    """Runs ``kernel`` on the CPU twin as compiled to ``stage`` (the whole kernel, not op by op):
    ``grid`` as in ``kernel[grid]``, ``args`` numpy arrays (pointers; written back in place)
    and Python scalars in the kernel's parameter order without its constexprs. The module is
    compiled once per signature and constexprs. ``dump`` (default: ``$HIVM_DUMP``) is a folder
    to write the module to, as ``launch-KERNEL.mlir`` with its inputs and the ``hivm-run``
    command that runs it by itself (see ``hivm.run``)."""
    import numpy as np

    import hivm

    constexprs = dict(constexprs or {})
    jit = _jit_function(kernel)
    sig = _signature_of(jit, args, constexprs)
    key = (jit.fn, tuple(sorted(sig.items())), tuple(sorted((k, repr(v)) for k, v in constexprs.items())), stage)
    entry = _COMPILED.get(key)
    text = entry[0] if entry else None
    if text is None:
        if stage == "hivm":
            ttir = compile(jit, sig, constexprs, stage="ttir")
            text = _with_sources(_lower(ttir, jit.__name__, stage, DEFAULT_TARGET, debuginfo=True))
        else:
            text = _with_sources(compile(jit, sig, constexprs, stage=stage))
        # What each launch needs of the text, read once.
        entry = _COMPILED[key] = (text, _entry_arity(text), bool(_FFTS.search(text)))
    grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
    if not 1 <= len(grid) <= 3 or any(not isinstance(g, int) or g < 1 for g in grid):
        raise ValueError(f"hivm.triton.launch: grid must be 1 to 3 positive ints, not {grid!r}")
    gx, gy, gz = (tuple(grid) + (1, 1))[:3]
    flat = []
    for a in args:
        if isinstance(a, np.ndarray) and a.ndim != 1:
            # A pointer sees the array's memory flat; a view keeps the write-back in place.
            if not a.flags.c_contiguous:
                raise ValueError("hivm.triton.launch: arrays must be C-contiguous (a pointer addresses them flat)")
            a = a.reshape(-1)
        flat.append(a)
    text, arity, ffts = entry
    call = [np.zeros(1, np.int8), np.zeros(1, np.int8), *flat]
    if ffts:
        # hfusion-add-ffts-addr's leading argument; the twin has no FFTS unit to address.
        call.insert(0, 0)
    # The grid: six trailing i32s (numbers of programs, then program ids) at the linalg stage;
    # three once triton-global-kernel-args-to-hivm-op reads the ids from get_block_idx.
    tail = arity - len(call)
    if tail == 6:
        call += [gx, gy, gz, 0, 0, 0]
    elif tail == 3:
        call += [gx, gy, gz]
    else:
        raise RuntimeError(f"hivm.triton.launch: the compiled kernel takes {tail} grid arguments, expected 3 or 6")
    if hivm.dump_folder(dump) is not None:
        name = "launch-" + re.sub(r"[^A-Za-z0-9_.-]", "_", getattr(jit.fn, "__name__", "kernel"))
        hivm.run(text, call, blocks=gx * gy * gz, sync=sync, dump=dump, dump_name=name)
        return text
    # Prepared once per kernel (and working folder, which `source` paths are relative
    # to): a launch then pays for the run alone.
    cwd = os.getcwd()
    with _PREPARED_LOCK:
        prepared = _PREPARED.get((key, cwd))
        if prepared is not None:
            _PREPARED.move_to_end((key, cwd))
    if prepared is None:
        prepared = hivm._Prepared(text, "<string>", cwd)
        with _PREPARED_LOCK:
            _PREPARED[(key, cwd)] = prepared
            while len(_PREPARED) > _PREPARED_MAX:
                _PREPARED.popitem(last=False)
    prepared.run(call, blocks=gx * gy * gz, sync=sync, stacklevel=3)
    return text


def _host_array(name, a):
    """A launch argument as the twin takes it: numpy arrays as they are, CPU torch tensors as
    numpy views of their memory (so results land in the tensor), scalars unchanged."""
    if hasattr(a, "detach") and hasattr(a, "numpy"):
        if getattr(a, "device", None) is not None and a.device.type != "cpu":
            raise TypeError(f"HIVM_TWIN=compile: argument {name!r} is on {a.device}; the twin runs on the CPU")
        try:
            return a.detach().numpy()
        except TypeError as e:
            raise TypeError(f"HIVM_TWIN=compile: argument {name!r}: {e}") from None
    return a


def _compiled_run(self, *args, grid, warmup=False, **kwargs):
    """``kernel[grid](...)`` under ``HIVM_TWIN=compile``: the kernel compiled to HIVM once per
    signature and constexprs, then run whole on the twin with the grid as blocks."""
    import inspect

    if warmup:
        return None
    jit = _jit_function(self)
    names = list(jit.arg_names)
    if len(args) > len(names):
        raise TypeError(f"{jit.__name__} takes {len(names)} arguments, got {len(args)}")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in names:
            bound[k] = v
    for p in jit.params:
        if p.name not in bound and p.default is not inspect.Parameter.empty:
            bound[p.name] = p.default
    missing = [n for n in names if n not in bound]
    if missing:
        raise TypeError(f"{jit.__name__} missing arguments: {', '.join(missing)}")
    constexprs = {p.name: bound[p.name] for p in jit.params if p.is_constexpr}
    values = [_host_array(n, bound[n]) for n in names if n not in constexprs]
    if callable(grid):
        grid = grid(dict(bound))
    launch(jit, grid, *values, constexprs=constexprs, stage="hivm")
    return None


def install_compiled_launch():
    """Makes ``kernel[grid](...)`` compile and run whole on the twin (``HIVM_TWIN=compile``);
    Triton's interpreter, which ``HIVM_TWIN`` switches on, provides the launch syntax."""
    from triton.runtime.interpreter import InterpretedFunction

    InterpretedFunction.run = _compiled_run
