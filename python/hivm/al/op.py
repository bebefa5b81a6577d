"""From an ``al.custom`` call to the op's description: the instance (class values
overridden by what ``__init__`` sets), the bound arguments and the MLIR attributes.

This part needs no Triton: the interpreter (run on the twin) and the compiler (TTIR)
both start from it. Messages at call time are triton-ascend's.
"""

import inspect
import os
import pathlib

from .enums import CORE, PIPE
from .registry import is_builtin_name, lookup
from .slots import slots_text

# Triton dtype names to MLIR element types (Triton's ``to_ir`` is signless for unsigned).
_DTYPES = {
    "int1": "i1",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "i8",
    "uint16": "i16",
    "uint32": "i32",
    "uint64": "i64",
    "fp16": "f16",
    "bf16": "bf16",
    "fp32": "f32",
    "fp64": "f64",
    "fp8e5": "f8E5M2",
    "fp8e4nv": "f8E4M3FN",
    "fp8e4b15": "f8E4M3B11FNUZ",
}


_INT_NAMES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_FLOAT_NAMES = ("fp16", "bf16", "fp32", "fp64")


def mlir_dtype(dtype) -> str:
    name = str(dtype)
    if name not in _DTYPES:
        raise TypeError(f"no MLIR type for Triton dtype {name!r}")
    return _DTYPES[name]


def _is_dtype(hint) -> bool:
    try:
        import triton.language as tl
    except ImportError:
        return False
    return isinstance(hint, tl.dtype)


def scalar_dtype(value, hint) -> str:
    """The Triton dtype name a Python scalar operand takes, as triton-ascend types it:
    bool int1, int int32 and float fp32 unless the hint (or an ``al.int64`` value where
    there is no hint) says otherwise."""
    name = str(hint) if _is_dtype(hint) else None
    if isinstance(value, bool):
        return "int1"
    if isinstance(value, int):
        if hint is None and hasattr(value, "type"):
            name = str(value.type)
        return name if name in _INT_NAMES else "int32"
    if isinstance(value, float):
        return name if name in _FLOAT_NAMES else "fp32"
    raise TypeError(f"Unsupported argument type {value} : {type(value)}")


def hint_of(op, pname):
    """The type hint of parameter ``pname``: ``arg_type`` first, then the annotation;
    None for an unannotated parameter or an op without a signature."""
    if pname is None:
        return None
    hint = op.arg_type.get(pname, op.signature.parameters[pname].annotation)
    return None if hint is inspect.Parameter.empty else hint


def _is_tl_tuple(v) -> bool:
    return type(v).__name__ == "tuple" and isinstance(getattr(v, "values", None), list)


def unwrap(v):
    """Constexprs give their value, inside tuples, ``tl.tuple``s, lists and dicts too."""
    if type(v).__name__ == "constexpr" and hasattr(v, "value"):
        return unwrap(v.value)
    if isinstance(v, (list, tuple)):
        return type(v)(unwrap(x) for x in v)
    if _is_tl_tuple(v):
        return tuple(unwrap(x) for x in v.values)
    if isinstance(v, dict):
        return {k: unwrap(x) for k, x in v.items()}
    return v


def normalise_call(name, args, kwargs):
    """The call's arguments as both paths take them: constexprs unwrapped and a user's
    ``sync_related_args`` dropped (the solver fills them), as triton-ascend does."""
    kwargs = unwrap(dict(kwargs))
    kwargs.pop("sync_related_args", None)
    return unwrap(name), unwrap(tuple(args)), kwargs


def outs_of(kwargs) -> list:
    """The ``out=`` values, one or a sequence, with None skipped."""
    out = kwargs.get("out", [])
    outs = list(out) if isinstance(out, (list, tuple)) or _is_tl_tuple(out) else [out]
    return [o for o in outs if o is not None]


def result_of(results):
    """What ``al.custom`` returns for its out tensors: None, the one tensor, or a
    ``tl.tuple``."""
    if not results:
        return None
    if len(results) == 1:
        return results[0]
    import triton.language as tl

    return tl.tuple(results)


def op_kind(op) -> str:
    return "hivm.hir.custom_macro" if is_macro(op) else "hivm.hir.custom"


def _quote(s) -> str:
    return '"' + str(s).replace("\\", "\\5C").replace('"', '\\22') + '"'


def instantiate(name, args, kwargs):
    """The op object of one call, built as triton-ascend builds it."""
    cls = lookup(name)
    op = cls.__new__(cls)
    op.arg_type = {}
    if cls.signature.parameters:
        cls.__init__(op, *args, **kwargs)
    return op


def is_macro(op) -> bool:
    return isinstance(op.pipe, (list, tuple)) and len(op.pipe) == 2


def attributes(op, *, bitcode_must_exist=True) -> dict:
    """Attribute name -> MLIR attribute text, for every attribute triton-ascend emits."""
    attrs = {"hivm.tcore_type": f"#hivm.tcore_type<{op.core.value}>"}
    if op.core is not CORE.CUBE:
        attrs["hivm.vf_mode"] = f"#hivm.vf_mode<{op.mode.value}>"
    slots = getattr(op, "sync_event_slots", None)
    if is_macro(op):
        attrs["hivm.pipe_in"] = f"#hivm.pipe<{PIPE(op.pipe[0]).value}>"
        attrs["hivm.pipe_out"] = f"#hivm.pipe<{PIPE(op.pipe[1]).value}>"
        if slots is not None:
            attrs["sync_event_slots"] = slots_text(slots)
    else:
        assert slots is None, "sync_event_slots is only supported for macro custom ops"
        attrs["hivm.pipe"] = f"#hivm.pipe<{op.pipe.value}>"
    if not is_builtin_name(op.name):
        assert getattr(op, "symbol", None), "Non builtin custom op, symbol is required."
        assert getattr(op, "bitcode", None), "Non builtin custom op, bitcode path is required."
    if getattr(op, "bitcode", None):
        # The literal "(bitcode)" is triton-ascend's message; the path follows it here.
        path = pathlib.Path(os.fspath(op.bitcode))
        assert path.exists() or not bitcode_must_exist, f"Provided bitcode (bitcode) not exist: {path}"
        attrs["bitcode"] = _quote(path.absolute())
    if getattr(op, "indexing_map", None) is not None:
        attrs["indexing_map"] = "[" + ", ".join(f"affine_map<{m}>" for m in op.indexing_map) + "]"
    if getattr(op, "iterator_types", None) is not None:
        attrs["iterator_types"] = (
            "[" + ", ".join(f"#hivm.iterator_type<{t.value}>" for t in op.iterator_types) + "]"
        )
    extra = getattr(op, "extra_buffers", None)
    if extra is not None:
        if isinstance(extra, tuple):
            extra = [extra]
        attrs["extra_buffers_types"] = "[" + ", ".join(mlir_dtype(t) for t, _ in extra) + "]"
        attrs["extra_buffers_sizes"] = "[" + ", ".join(str(int(n)) for _, n in extra) + "]"
    for key in ("symbol", "source", "compile", "extra_attr"):
        if getattr(op, key, None) is not None:
            attrs[key] = _quote(getattr(op, key))
    return attrs


def align_dims(op) -> list:
    """``arg_attrs``: one dict per signature parameter (indexed by parameter, as
    triton-ascend does), holding ``align_dim`` where the op asks for it."""
    params = list(op.signature.parameters)
    dicts = [{} for _ in params]
    for key, dim in (getattr(op, "align_dim", None) or {}).items():
        if isinstance(key, str) and key in params:
            index = params.index(key)
        elif isinstance(key, int) and not isinstance(key, bool):
            index = key
        else:
            raise AssertionError("align_dim's keys should be string or int")
        dicts[index]["align_dim"] = f"{int(dim)} : i64"
    return dicts


def bind(op, args, kwargs):
    """(parameter name or None, value) of each input in operand order: the declared
    order when the op has a signature, else the call order. ``out`` is not an input."""
    kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    if not op.signature.parameters:
        return [(None, v) for v in list(args) + list(kwargs.values()) if v is not None]
    bound = op.signature.bind(*args, **kwargs)
    ins = []
    for pname, param in op.signature.parameters.items():
        if pname not in bound.arguments:
            continue
        value = bound.arguments[pname]
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            ins += [(pname, v) for v in value]
        elif param.kind is inspect.Parameter.VAR_KEYWORD:
            ins += [(pname, v) for v in value.values()]
        else:
            ins += [(pname, v) for v in _flatten(value)]
    return [(p, v) for p, v in ins if v is not None]


def _flatten(value):
    """A list, tuple or ``tl.tuple`` argument gives one operand per element."""
    if isinstance(value, (list, tuple)) or _is_tl_tuple(value):
        return list(value)
    return [value]


def dict_text(attrs) -> str:
    """An attribute dictionary in MLIR syntax, keys sorted as MLIR prints them."""
    return "{" + ", ".join(f"{k} = {v}" for k, v in sorted(attrs.items())) + "}"


def attr_dict(op) -> str:
    """The op's whole attribute dictionary in MLIR syntax, ``arg_attrs`` included when any operand has one.
    On the CPU twin (``HIVM_TWIN`` set) the bitcode need not exist: the twin builds the
    implementation source beside it, and names it when that is missing too."""
    twin = os.environ.get("HIVM_TWIN", "0").lower() in ("1", "true", "yes", "on", "compile")
    attrs = attributes(op, bitcode_must_exist=not twin)
    dims = align_dims(op)
    # All-empty per-operand dicts say nothing; the CustomOp document's listings leave them out.
    if any(dims):
        attrs["arg_attrs"] = "[" + ", ".join(dict_text(d) for d in dims) + "]"
    return dict_text(attrs)
