"""The enumerations of triton-ascend's custom-op extension.

Each member's value is the keyword the MLIR attribute prints (``#hivm.pipe<PIPE_V>``,
``#hivm.iterator_type<parallel>``), so emitting an attribute never needs a table.
"""

import enum


class CORE(enum.Enum):
    VECTOR = "VECTOR"
    CUBE = "CUBE"
    CUBE_OR_VECTOR = "CUBE_OR_VECTOR"
    CUBE_AND_VECTOR = "CUBE_AND_VECTOR"


class PIPE(enum.Enum):
    PIPE_S = "PIPE_S"
    PIPE_V = "PIPE_V"
    PIPE_M = "PIPE_M"
    PIPE_MTE1 = "PIPE_MTE1"
    PIPE_MTE2 = "PIPE_MTE2"
    PIPE_MTE3 = "PIPE_MTE3"
    PIPE_ALL = "PIPE_ALL"
    PIPE_FIX = "PIPE_FIX"


class MODE(enum.Enum):
    SIMD = "SIMD"
    SIMT = "SIMT"
    MIX = "MIX"


class SYNC_HINT(enum.Enum):
    """How a macro's slot is synchronised (``wait``/``set``/``internal`` in MLIR)."""

    WAIT = "wait"
    SET = "set"
    INTERNAL = "internal"


class EVENT_ID(enum.Enum):
    EVENT_ID0 = "EVENT_ID0"
    EVENT_ID1 = "EVENT_ID1"
    EVENT_ID2 = "EVENT_ID2"
    EVENT_ID3 = "EVENT_ID3"
    EVENT_ID4 = "EVENT_ID4"
    EVENT_ID5 = "EVENT_ID5"
    EVENT_ID6 = "EVENT_ID6"
    EVENT_ID7 = "EVENT_ID7"


class IteratorType(enum.Enum):
    Parallel = "parallel"
    Broadcast = "broadcast"
    Transpose = "transpose"
    Reduction = "reduction"
    Interleave = "interleave"
    Deinterleave = "deinterleave"
    Inverse = "inverse"
    Pad = "pad"
    Concat = "concat"
    Gather = "gather"
    Cumulative = "cumulative"
    Opaque = "opaque"


class int64(int):
    """An int that is emitted as ``i64`` where the op gives no type hint."""

    @property
    def type(self):
        try:
            import triton.language as tl
        except ImportError:
            return "int64"
        return tl.int64
