"""``al.custom`` inside a compiled kernel: Triton's own builder cannot make hivm ops, so
each call becomes a call of a private placeholder function, which survives Triton's TTIR
passes (a call to a declaration is neither inlined nor removed); ``hivm.triton.compile``
then rewrites each placeholder call into the ``hivm.hir.custom``/``custom_macro`` op that
triton-ascend emits."""

import itertools

from .op import attr_dict, bind, hint_of, instantiate, op_kind, outs_of, result_of, scalar_dtype

PLACEHOLDER = "__hivm_al_custom_"

# Placeholder name -> (op kind, op name, attribute dictionary text, number of ins, location).
EMITTED = {}
_COUNTER = itertools.count()

# Triton dtype name -> the builder method making a constant of it.
_CONSTANT = {
    "int1": "get_int1",
    "int8": "get_int8",
    "int16": "get_int16",
    "int32": "get_int32",
    "int64": "get_int64",
    "uint8": "get_uint8",
    "uint16": "get_uint16",
    "uint32": "get_uint32",
    "uint64": "get_uint64",
    "fp16": "get_fp16",
    "bf16": "get_bf16",
    "fp32": "get_fp32",
    "fp64": "get_fp64",
}


def _value(v, hint, semantic):
    """The IR value of one input, typed as triton-ascend types it."""
    import triton.language as tl

    if isinstance(v, tl.core.tensor):
        if not v.type.is_block() and isinstance(hint, tl.dtype) and v.dtype != hint:
            v = semantic.cast(v, hint)
        return v.handle
    dtype = scalar_dtype(v, hint)
    value = bool(v) if dtype == "int1" else float(v) if dtype.startswith(("fp", "bf")) else int(v)
    return getattr(semantic.builder, _CONSTANT[dtype])(value)


def _calling_generator():
    """Triton's code generator compiling the current kernel. Wrappers written with
    ``@al.builtin`` call ``al.custom_semantic(..., _semantic=_semantic)`` without passing
    ``_generator``, so it is found on the stack (the frame visiting the call)."""
    import sys

    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if type(owner).__name__ == "CodeGenerator" and hasattr(owner, "module") and hasattr(owner, "fn"):
            return owner
        frame = frame.f_back
    return None


def _call_loc(generator):
    """The call's location as Triton's code generator gives its ops (``file:line:col`` of
    the node being visited), written as an MLIR ``loc(...)``."""
    node = getattr(generator, "cur_node", None)
    if node is None or not hasattr(node, "lineno"):
        return None
    file = str(getattr(generator, "file_name", "") or "").replace("\\", "\\\\").replace('"', '\\"')
    line = getattr(generator, "begin_line", 0) + node.lineno
    col = getattr(generator, "begin_col", 0) + node.col_offset
    return f' loc("{file}":{line}:{col})'


def emit(name, args, kwargs, semantic, generator):
    import triton.language as tl

    generator = generator or _calling_generator()
    if generator is None:
        raise RuntimeError(f"al.custom('{name}'): no Triton kernel is being compiled")
    op = instantiate(name, args, kwargs)
    attrs = attr_dict(op)
    outs = outs_of(kwargs)
    ins = [_value(v, hint_of(op, pname), semantic) for pname, v in bind(op, args, kwargs)]

    builder = semantic.builder
    operands = ins + [o.handle for o in outs]
    fty = builder.get_function_ty([h.get_type() for h in operands], [o.handle.get_type() for o in outs])
    fname = f"{PLACEHOLDER}{next(_COUNTER)}"
    # Declared beside the kernel, not at the call: a function cannot nest in another.
    ip = builder.get_insertion_point()
    builder.set_insertion_point_after(generator.fn.get_operation())
    fn = builder.get_or_insert_function(generator.module, fname, fty, "private", False)
    builder.restore_insertion_point(ip)
    call = builder.call(fn, operands)
    EMITTED[fname] = (op_kind(op), name, attrs, len(ins), _call_loc(generator))
    return result_of([tl.core.tensor(call.get_result(i), o.type) for i, o in enumerate(outs)])
