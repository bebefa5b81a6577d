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


def compile(kernel, signature: dict, constexprs: dict = None) -> str:
    """The TTIR of ``kernel`` (a ``@triton.jit`` function). ``signature`` and
    ``constexprs`` are as Triton's ``ASTSource`` takes them, e.g.
    ``{"x_ptr": "*fp32", "n": "i32", "L": "constexpr"}`` and ``{"L": 32}``."""
    import os

    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend

    from .al import emit

    src = ASTSource(kernel, signature, constexprs=constexprs or {})
    target = GPUTarget("cuda", 80, 32)
    backend = make_backend(target)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    options = backend.parse_options({})
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
    stages = {}
    backend.add_stages(stages, options, src.language)
    module = stages["ttir"](module, {})
    return _rewrite(str(module), emit.EMITTED)
