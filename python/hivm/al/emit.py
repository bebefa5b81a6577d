"""``al.custom`` inside a compiled kernel: Triton's own builder cannot make hivm ops, so
each call becomes a call of a private placeholder function, which survives Triton's TTIR
passes (a call to a declaration is neither inlined nor removed); ``hivm.triton.compile``
then rewrites each placeholder call into the ``hivm.hir.custom``/``custom_macro`` op that
triton-ascend emits."""

import itertools

from .op import align_dims, attributes, bind, instantiate, is_macro

PLACEHOLDER = "__hivm_al_custom_"

# Placeholder name -> (op kind, op name, attribute dictionary text, number of ins).
EMITTED = {}
_COUNTER = itertools.count()

_INT_GETTERS = {
    "int64": "get_int64",
    "uint64": "get_uint64",
    "int32": "get_int32",
    "uint32": "get_uint32",
    "int16": "get_int16",
    "uint16": "get_uint16",
    "int8": "get_int8",
    "uint8": "get_uint8",
}
_FLOAT_GETTERS = {"fp64": "get_fp64", "fp32": "get_fp32", "fp16": "get_fp16", "bf16": "get_bf16"}


def _value(v, hint, semantic):
    """The IR value of one input, typed as triton-ascend types it."""
    import triton.language as tl

    builder = semantic.builder
    hint_name = str(hint) if isinstance(hint, tl.dtype) else None
    if isinstance(v, tl.core.tensor):
        if not v.type.is_block() and hint_name is not None and v.dtype != hint:
            v = semantic.cast(v, hint)
        return v.handle
    if isinstance(v, bool):
        return builder.get_int1(v)
    if isinstance(v, int):
        if hint is None and hasattr(v, "type"):
            hint_name = str(v.type)
        return getattr(builder, _INT_GETTERS.get(hint_name, "get_int32"))(int(v))
    if isinstance(v, float):
        return getattr(builder, _FLOAT_GETTERS.get(hint_name, "get_fp32"))(float(v))
    raise TypeError(f"Unsupported argument type {v} : {type(v)}")


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


def emit(name, args, kwargs, semantic, generator):
    import triton.language as tl

    generator = generator or _calling_generator()
    if generator is None:
        raise RuntimeError(f"al.custom('{name}'): no Triton kernel is being compiled")

    op = instantiate(name, args, kwargs)
    attrs = attributes(op)
    entries = ["{" + ", ".join(f"{k} = {v}" for k, v in d.items()) + "}" for d in align_dims(op)]
    attrs["arg_attrs"] = "[" + ", ".join(entries) + "]"
    attr_text = "{" + ", ".join(f"{k} = {v}" for k, v in sorted(attrs.items())) + "}"

    out = kwargs.get("out", [])
    outs = list(out) if isinstance(out, (list, tuple)) or isinstance(out, tl.tuple) else [out]
    outs = [o for o in outs if o is not None]
    ins = []
    for pname, v in bind(op, args, kwargs):
        hint = None
        if pname is not None:
            hint = op.arg_type.get(pname, op.signature.parameters[pname].annotation)
            hint = None if hint is op.signature.empty else hint
        ins.append(_value(v, hint, semantic))

    builder = semantic.builder
    operands = ins + [o.handle for o in outs]
    fty = builder.get_function_ty([h.get_type() for h in operands], [o.handle.get_type() for o in outs])
    fname = f"{PLACEHOLDER}{next(_COUNTER)}"
    ip = builder.get_insertion_point()
    builder.set_insertion_point_after(generator.fn.get_operation())
    fn = builder.get_or_insert_function(generator.module, fname, fty, "private", False)
    builder.restore_insertion_point(ip)
    call = builder.call(fn, operands)
    kind = "hivm.hir.custom_macro" if is_macro(op) else "hivm.hir.custom"
    EMITTED[fname] = (kind, name, attr_text, len(ins))
    results = [tl.core.tensor(call.get_result(i), o.type) for i, o in enumerate(outs)]
    if not results:
        return None
    return results[0] if len(results) == 1 else tl.tuple(results)
