"""triton-ascend's custom-op extension (``triton.language.extra.cann.extension``), for
machines without triton-ascend: registration with its checks and messages, the enums,
sync slots and affine maps. ``import triton.language.extra.cann.extension as al`` finds
this module through hivm's import hook when the real extension is not installed.
"""

from .affine import AffineExpr, AffineMap, affine_expr, affine_map
from .enums import CORE, EVENT_ID, MODE, PIPE, SYNC_HINT, IteratorType, int64
from .op import align_dims, attr_dict, attributes, bind, instantiate, normalise_call
from .registry import register_custom_op
from . import builtins as _builtins
from . import cname as _cname
from . import interpret
from .interpret import CustomOpError
from .slots import SyncEventSlot

import os as _os

if _os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
    interpret.accept_numpy_arguments()

_NO_JIT = "Did you forget to add @triton.jit ? (`_semantic` argument must be provided outside of JIT functions.)"


def _fallback_builtin(fn):
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs.get("_semantic") is None:
            raise ValueError(_NO_JIT)
        return fn(*args, **kwargs)

    wrapper.__triton_builtin__ = True
    return wrapper


try:
    from triton.language.core import builtin
except ImportError:  # Triton is not installed: the same contract without it.
    builtin = _fallback_builtin


def custom_semantic(name, *args, _semantic=None, _generator=None, **kwargs):
    """Emits one call inside a compiled kernel (see ``hivm.triton.compile``)."""
    from . import emit

    name, args, kwargs = normalise_call(name, args, kwargs)
    return emit.emit(name, args, kwargs, _semantic, _generator)


def custom(name, *args, _semantic=None, _generator=None, **kwargs):
    """``al.custom``: compiled inside ``@triton.jit`` (Triton passes ``_semantic`` to
    builtins); under Triton's interpreter, which passes nothing to extension modules,
    run on the CPU twin; anywhere else, Triton's "forgot @triton.jit" error."""
    if _semantic is None:
        if interpret.in_interpreter(args, kwargs):
            return interpret.run_custom(name, args, kwargs)
        raise ValueError(_NO_JIT)
    return custom_semantic(name, *args, _semantic=_semantic, _generator=_generator, **kwargs)


custom.__triton_builtin__ = True


_cname.install()
_builtins.install()

__all__ = [
    "AffineExpr",
    "AffineMap",
    "CORE",
    "CustomOpError",
    "EVENT_ID",
    "IteratorType",
    "MODE",
    "PIPE",
    "SYNC_HINT",
    "SyncEventSlot",
    "affine_expr",
    "affine_map",
    "builtin",
    "custom",
    "custom_semantic",
    "int64",
    "register_custom_op",
]
