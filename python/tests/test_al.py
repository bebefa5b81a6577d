"""hivm.al: triton-ascend's registration checks and messages, call-time checks,
the attribute text it emits (checked by hivm's own parser and verifier), and the
import hook that serves ``triton.language.extra.cann.extension``."""

import os
import subprocess
import sys
import textwrap

import pytest

import hivm
import hivm.al as al
from hivm.al import registry

P = al.PIPE


def register(class_name, **fields):
    """Registers a fresh class with the given class attributes."""
    return al.register_custom_op(type(class_name, (), dict(fields)))


def _uniq(prefix, _n=[0]):
    _n[0] += 1
    return f"{prefix}_{_n[0]}"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"pipe": P.PIPE_V, "mode": al.MODE.SIMD}, "'core' field is required."),
        ({"core": al.CORE.VECTOR, "mode": al.MODE.SIMD}, "'pipe' field is required."),
        ({"core": "VECTOR", "pipe": P.PIPE_V, "mode": al.MODE.SIMD}, "Invalid 'core' field, CORE type is required."),
        (
            {"core": al.CORE.VECTOR, "pipe": (P.PIPE_MTE2, "PIPE_V"), "mode": al.MODE.SIMD},
            "macro custom op pipe sequence must contain PIPE values",
        ),
        (
            {"core": al.CORE.VECTOR, "pipe": (P.PIPE_MTE2, P.PIPE_V, P.PIPE_MTE3), "mode": al.MODE.SIMD},
            "Invalid 'pipe' field: single PIPE lowers to hivm.hir.custom; "
            "a sequence of two PIPE values lowers to hivm.hir.custom_macro",
        ),
        ({"core": al.CORE.VECTOR, "pipe": P.PIPE_V}, "'mode' field is required for non-CUBE custom ops."),
        (
            {"core": al.CORE.VECTOR, "pipe": P.PIPE_V, "mode": "SIMD"},
            "Invalid 'mode' field, MODE type is required.",
        ),
        (
            {"core": al.CORE.VECTOR, "pipe": P.PIPE_V, "mode": al.MODE.SIMD, "sync_event_slots": [("internal",)]},
            "sync_event_slots requires a two-pipe macro custom op",
        ),
    ],
)
def test_registration_messages(fields, message):
    with pytest.raises(AssertionError) as e:
        register(_uniq("bad"), **fields)
    assert str(e.value) == message


def test_registration_rules():
    with pytest.raises(AssertionError, match=r"^@register_custom_op should decorate on a class\.$"):
        al.register_custom_op(lambda: None)
    # CUBE needs no mode; the name defaults to the class name and must be unique.
    cls = register("cube_op_unique", core=al.CORE.CUBE, pipe=P.PIPE_M)
    assert cls.name == "cube_op_unique" and registry.lookup("cube_op_unique") is cls
    with pytest.raises(AssertionError, match=r"^Custom op 'cube_op_unique' already used\.$"):
        register("cube_op_unique", core=al.CORE.CUBE, pipe=P.PIPE_M)
    # An explicit name wins over the class name.
    named = register("Whatever", name="explicit_name_op", core=al.CORE.VECTOR, pipe=P.PIPE_V, mode=al.MODE.SIMT)
    assert registry.lookup("explicit_name_op") is named


def test_call_time_checks(tmp_path):
    with pytest.raises(AssertionError, match=r"^Custom Op 'nobody' not registered\.$"):
        al.instantiate("nobody", (), {})
    # An unregistered builtin is a SIMT vector op whose ins keep the call order.
    op = al.instantiate("__builtin_indirect_load", (1, 2), {"mask": 3})
    assert al.attributes(op)["hivm.vf_mode"] == "#hivm.vf_mode<SIMT>"
    assert [v for _, v in al.bind(op, (1, 2), {"mask": 3, "out": 9})] == [1, 2, 3]

    name = _uniq("needs_impl")
    register(name, core=al.CORE.VECTOR, pipe=P.PIPE_V, mode=al.MODE.SIMD)
    with pytest.raises(AssertionError, match=r"^Non builtin custom op, symbol is required\.$"):
        al.attributes(al.instantiate(name, (), {}))

    class WithInit:
        core, pipe, mode = al.CORE.VECTOR, P.PIPE_V, al.MODE.SIMD
        symbol = "impl"

        def __init__(self, x, out=None, bitcode=None, slots=None):
            if bitcode is not None:
                self.bitcode = bitcode
            if slots is not None:
                self.sync_event_slots = slots

    WithInit.name = _uniq("with_init")
    al.register_custom_op(WithInit)
    with pytest.raises(AssertionError, match=r"^Non builtin custom op, bitcode path is required\.$"):
        al.attributes(al.instantiate(WithInit.name, (1,), {}))
    with pytest.raises(AssertionError, match=r"^Provided bitcode \(bitcode\) not exist"):
        al.attributes(al.instantiate(WithInit.name, (1,), {"bitcode": str(tmp_path / "missing.bc")}))
    bc = tmp_path / "impl.bc"
    bc.write_bytes(b"")
    with pytest.raises(AssertionError, match=r"^sync_event_slots is only supported for macro custom ops$"):
        al.attributes(al.instantiate(WithInit.name, (1,), {"bitcode": str(bc), "slots": [("internal",)]}))
    # Outside a kernel the call itself fails as a Triton builtin does.
    with pytest.raises(ValueError, match="Did you forget to add @triton.jit"):
        al.custom(WithInit.name, 1)


def test_slot_entries():
    from hivm.al.slots import slot_text

    with pytest.raises(AssertionError, match=r"^invalid sync_event_slots entry$"):
        slot_text(("Internal",))
    with pytest.raises(AssertionError, match=r"^sync_event_slots entries must be SyncEventSlot or tuple$"):
        slot_text([P.PIPE_MTE2, P.PIPE_V])
    # No hint means WAIT in Python, so it is spelled out; an unpinned internal is not.
    assert slot_text((P.PIPE_MTE2, P.PIPE_V)).endswith("#hivm.pipe<PIPE_V>, wait>")
    assert slot_text(al.SyncEventSlot(P.PIPE_MTE2, P.PIPE_V, "internal")).endswith("#hivm.pipe<PIPE_V>>")
    assert slot_text(al.SyncEventSlot(sync=al.SYNC_HINT.INTERNAL)) == "#hivm.sync_event_slot<internal>"
    assert slot_text((P.PIPE_M, P.PIPE_MTE2, "set", "EVENT_ID7")).endswith("set, <EVENT_ID7>>")


def test_align_dim_and_binding():
    class Aligned:
        core, pipe, mode = al.CORE.VECTOR, P.PIPE_V, al.MODE.SIMD

        def __init__(self, a, b, offsets, c=None, out=None):
            self.align_dim = {"b": 1, 0: 0}

    Aligned.name = _uniq("aligned")
    al.register_custom_op(Aligned)
    op = al.instantiate(Aligned.name, ("A",), {"offsets": (1, 2), "b": "B", "out": "O"})
    # Declared order, tuples flattened, a missing optional skipped.
    assert al.bind(op, ("A",), {"offsets": (1, 2), "b": "B", "out": "O"}) == [
        ("a", "A"),
        ("b", "B"),
        ("offsets", 1),
        ("offsets", 2),
    ]
    assert al.align_dims(op) == [{"align_dim": "0 : i64"}, {"align_dim": "1 : i64"}, {}, {}, {}]
    op.align_dim = {"nope": 1}
    with pytest.raises(AssertionError, match=r"^align_dim's keys should be string or int$"):
        al.align_dims(op)


def test_emitted_attributes_verify(tmp_path):
    """Every attribute kind the frontend emits, in an op that hivm's verifier accepts and
    prints back unchanged."""
    bc = tmp_path / "mac.bc"
    bc.write_bytes(b"")
    E = al.affine_expr

    class Mac:
        core, pipe, mode = al.CORE.VECTOR, [P.PIPE_MTE2, P.PIPE_V], al.MODE.SIMD
        symbol, bitcode, source, compile = "mac_impl", str(bc), "mac.cpp", "-O2"
        extra_attr = "k=v"
        iterator_types = [al.IteratorType.Parallel, al.IteratorType.Reduction]
        indexing_map = [al.affine_map.get_identity(2), al.affine_map.get(2, 0, [E.get_dim(1) * 2, E.get_dim(0) // 4])]
        sync_event_slots = [
            al.SyncEventSlot(P.PIPE_MTE2, P.PIPE_V, al.SYNC_HINT.WAIT, al.EVENT_ID.EVENT_ID1),
            (P.PIPE_V, P.PIPE_MTE2, al.SYNC_HINT.SET),
            (P.PIPE_MTE2, P.PIPE_V, al.SYNC_HINT.INTERNAL),
        ]
        extra_buffers = [("bf16", 256), ("fp32", 424242), ("uint8", 32), ("int64", 8)]

        def __init__(self, x, y, out=None):
            self.align_dim = {"y": 0}

    Mac.name = _uniq("mac")
    al.register_custom_op(Mac)
    op = al.instantiate(Mac.name, ("X", "Y"), {"out": "O"})
    attrs = al.attr_dict(op)
    ty = "memref<16x16xf32, #hivm.address_space<ub>>"
    text = textwrap.dedent(
        f"""\
        func.func @f(%x: {ty}, %y: {ty}, %o: {ty}) {{
          hivm.hir.custom_macro {attrs} "{Mac.name}" ins(%x, %y : {ty}, {ty}) outs(%o : {ty})
          return
        }}
        """
    )
    printed = hivm.opt(text)
    line = next(l for l in printed.splitlines() if "hivm.hir.custom_macro" in l)
    for piece in [
        "arg_attrs = [{}, {align_dim = 0 : i64}, {}]",
        f'bitcode = "{bc.absolute()}"',
        'compile = "-O2"',
        "extra_buffers_sizes = [256, 424242, 32, 8]",
        "extra_buffers_types = [bf16, f32, i8, i64]",
        "hivm.pipe_in = #hivm.pipe<PIPE_MTE2>",
        "hivm.pipe_out = #hivm.pipe<PIPE_V>",
        "hivm.vf_mode = #hivm.vf_mode<SIMD>",
        "#hivm.iterator_type<parallel>, #hivm.iterator_type<reduction>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, wait, <EVENT_ID1>>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE2>, set>",
        "#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>]",
        'symbol = "mac_impl"',
        'extra_attr = "k=v"',
    ]:
        assert piece in line, (piece, line)
    assert "(d0, d1) -> (d1 * 2, d0 floordiv 4)" in printed
    # Printing is a fixed point.
    assert hivm.opt(printed) == printed


def _fake_triton(root, with_real_extension):
    ext = root / "triton" / "language" / "extra"
    ext.mkdir(parents=True)
    for d in (root / "triton", root / "triton" / "language", ext):
        (d / "__init__.py").write_text("")
    if with_real_extension:
        (ext / "cann").mkdir()
        (ext / "cann" / "__init__.py").write_text("")
        (ext / "cann" / "extension.py").write_text("REAL = True\n")


@pytest.mark.parametrize("with_real", [False, True])
def test_import_hook(tmp_path, with_real):
    """A fresh interpreter (the hook comes from hivm-al.pth) finds the extension in
    hivm.al, and stands down when a real triton-ascend provides it."""
    _fake_triton(tmp_path, with_real)
    code = textwrap.dedent(
        """\
        import sys
        import triton.language.extra.cann.extension as al
        print(getattr(al, "REAL", False), hasattr(al, "register_custom_op"), "hivm._hivm" in sys.modules)
        if not getattr(al, "REAL", False):
            import hivm.al
            assert al.register_custom_op is hivm.al.register_custom_op
            assert al.PIPE.PIPE_V is hivm.al.PIPE.PIPE_V
        """
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # The hook does not load the native module at start-up.
    assert out.stdout.split() == (["True", "False", "False"] if with_real else ["False", "True", "False"])


def test_dtype_cname():
    import triton.language as tl
    assert tl.int32.cname == "int32_t" and tl.uint8.cname == "uint8_t"
    assert tl.float16.cname == "half" and tl.bfloat16.cname == "bfloat16_t" and tl.float32.cname == "float"
    assert tl.int1.cname == "bool" and tl.float8e5.cname == "float8_e5m2_t"
    assert tl.pointer_type(tl.float32).element_ty.cname == "float"
