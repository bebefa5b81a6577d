"""``hivm.triton.compile``: a Triton kernel's TTIR with its ``al.custom`` calls as the
``hivm.hir.custom`` / ``hivm.hir.custom_macro`` ops triton-ascend emits. Triton's own front
end and TTIR stage run (no GPU needed: the stages are taken from Triton's CUDA backend,
whose TTIR passes are target independent)."""

import re

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
        kind, name, attrs, n_ins = emitted[fname]
        values, tys = _split_top(operands), _split_top(types)
        text = f"{indent}{results or ''}{kind} {attrs} \"{name}\""
        if n_ins:
            text += f" ins({', '.join(values[:n_ins])} : {', '.join(tys[:n_ins])})"
        if len(values) > n_ins:
            text += f" outs({', '.join(values[n_ins:])} : {', '.join(tys[n_ins:])})"
        if result_types.strip() != "()":
            text += f" -> {result_types.strip()}"
        lines.append(text + (loc or ""))
    return "\n".join(lines) + "\n"


_STAGES = ("ttir", "linalg")

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
    return JITFunction(fn)


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
    each ``al.custom`` call as the op triton-ascend emits, or ``"linalg"``, that module after
    ``triton-to-linalg`` as triton-ascend hands it to bishengir-compile (with ``hacc.target``,
    which its backend adds). ``signature`` and ``constexprs`` are as Triton's ``ASTSource`` takes
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
    from . import opt

    linalg = opt(ttir, LINALG_PIPELINE)
    return _with_target(linalg, target)


def _with_target(text: str, target: str) -> str:
    """``hacc.target`` on the module, as triton-ascend's backend sets it."""
    attr = f'hacc.target = #hacc.target<"{target}">'
    if text.startswith("module {"):
        return f"module attributes {{{attr}}} {{" + text[len("module {"):]
    if text.startswith("module attributes {"):
        return f"module attributes {{{attr}, " + text[len("module attributes {"):]
    raise ValueError("hivm.triton.compile: unexpected module text")
