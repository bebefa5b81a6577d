"""``@al.register_custom_op``: the class checks and the global registry.

The checks and their messages are triton-ascend's, as ``assert``s, so existing user code
that catches ``AssertionError`` (or Triton's ``CompilationError`` around it) keeps working.
Only class attributes are checked here; instance values set in ``__init__`` are read at
call time.
"""

import inspect

from .enums import CORE, MODE, PIPE

_REGISTRY = {}

BUILTIN_PREFIX = "__builtin_"


def register_custom_op(cls):
    assert isinstance(cls, type), "@register_custom_op should decorate on a class."
    name = getattr(cls, "name", cls.__name__)
    assert name not in _REGISTRY, f"Custom op '{name}' already used."
    assert hasattr(cls, "core"), "'core' field is required."
    assert hasattr(cls, "pipe"), "'pipe' field is required."
    assert isinstance(cls.core, CORE), "Invalid 'core' field, CORE type is required."
    pipe = cls.pipe
    if isinstance(pipe, (list, tuple)) and len(pipe) == 2:
        assert all(isinstance(p, PIPE) for p in pipe), "macro custom op pipe sequence must contain PIPE values"
        is_macro = True
    else:
        assert isinstance(pipe, PIPE), (
            "Invalid 'pipe' field: single PIPE lowers to hivm.hir.custom; "
            "a sequence of two PIPE values lowers to hivm.hir.custom_macro"
        )
        is_macro = False
    if cls.core is not CORE.CUBE:
        assert hasattr(cls, "mode"), "'mode' field is required for non-CUBE custom ops."
        assert isinstance(cls.mode, MODE), "Invalid 'mode' field, MODE type is required."
    if getattr(cls, "sync_event_slots", None) is not None:
        assert is_macro, "sync_event_slots requires a two-pipe macro custom op"
    cls.name = name
    cls.signature = inspect.signature(cls)
    _REGISTRY[name] = cls
    return cls


class _UnregisteredBuiltin:
    """What an unregistered ``__builtin_*`` name calls: a SIMT vector op with no
    signature, so its ins follow the call order."""

    core = CORE.VECTOR
    pipe = PIPE.PIPE_V
    mode = MODE.SIMT
    signature = inspect.Signature()


def lookup(name):
    """The registered class of ``name``, a dummy class for an unregistered builtin."""
    cls = _REGISTRY.get(name)
    if cls is not None:
        return cls
    assert name.startswith(BUILTIN_PREFIX), f"Custom Op '{name}' not registered."
    return type(name, (_UnregisteredBuiltin,), {"name": name})


def is_builtin_name(name) -> bool:
    return name.startswith(BUILTIN_PREFIX)
