"""The builtin custom ops triton-ascend registers (``__builtin_index_select``,
``_index_put``, ``_gather_load``, ``_scatter_store``): SIMT vector ops whose
implementations ship with the compiler. Their argument checks and messages are
triton-ascend's; GM operands are pointers, UB operands tensors."""

from .enums import CORE, MODE, PIPE
from .registry import register_custom_op


def _int_like(v) -> bool:
    """An int, or an integer scalar/tensor value (a runtime index)."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    dtype = getattr(v, "dtype", None)
    return dtype is not None and hasattr(dtype, "is_int") and dtype.is_int()


def _check_int_tuple(label, values):
    assert all(_int_like(x) for x in values), f"{label} should be a tuple of integers"


def _all_int(label, values):
    assert all(isinstance(x, int) for x in values), f"{label} should all be integer"


def _is_pointer(v) -> bool:
    ty, dtype = getattr(v, "type", None), getattr(v, "dtype", None)
    return bool((ty is not None and ty.is_ptr()) or (dtype is not None and dtype.is_ptr()))


def _rank_in(label, rank, lo, hi):
    assert lo <= rank <= hi, f"{label} rank should in [{lo}, {hi}], but got {rank}"


class _SimtBuiltin:
    core = CORE.VECTOR
    pipe = PIPE.PIPE_V
    mode = MODE.SIMT


def _int64():
    import triton.language as tl

    return tl.int64


def _define():
    """Defines and registers the classes (annotations need Triton's dtypes)."""
    i64 = _int64()

    class IndexSelect(_SimtBuiltin):
        """Gathers rows of the GM tensor ``src`` chosen by the UB ``index`` along ``dim``
        into the UB ``out``; indices at or past ``bound`` give ``other``. Ranks 2-5."""

        name = "__builtin_index_select"

        def __init__(self, src, index, dim, bound: i64, end_offset, start_offset, src_stride, other=None, out=None):
            assert _is_pointer(src), f"src should be a pointer, but got {src.type}"
            assert index.dtype.is_int(), "index should be integer tensor"
            src_rank, idx_rank = len(src_stride), len(index.shape)
            _rank_in("src", src_rank, 2, 5)
            _rank_in("index", idx_rank, 1, 2)
            assert _int_like(dim), "dim should be an integer"
            assert _int_like(bound), "bound should be an integer"
            assert 0 <= dim < src_rank, f"dim should in [0, {src_rank - 1}], but got {dim}"
            assert len(start_offset) == len(src_stride), "start_offset and src_stride should have same size"
            assert len(end_offset) == idx_rank + len(start_offset) - 1, (
                "len(end_offset) should be equal to index rank + len(start_offset) - 1"
            )
            for label, values in (("end_offset", end_offset), ("start_offset", start_offset), ("src_stride", src_stride)):
                _check_int_tuple(label, values)
            assert out, "out is required"
            assert out.dtype == src.dtype.element_ty, "out should have same dtype as src"
            for key in ("end_offset", "start_offset", "src_stride"):
                self.arg_type[key] = index.dtype
            self.extra_attr = f"src_stride_len={len(src_stride)}"

    class IndexPut(_SimtBuiltin):
        """Scatters the UB ``value`` into the GM tensor ``dst`` at ``index`` along ``dim``."""

        name = "__builtin_index_put"

        def __init__(self, dst, index, value, dim, bound: i64, dst_shape, dst_offset, dst_stride):
            assert _is_pointer(dst), f"dst should be a pointer, but got {dst.type}"
            assert index.dtype.is_int(), "index should be integer tensor"
            value_rank = len(value.shape)
            _rank_in("value", value_rank, 2, 5)
            assert isinstance(dim, int), "dim should be an integer"
            assert isinstance(bound, int), "bound should be an integer"
            assert 0 <= dim < value_rank - 1, f"dim should in [0, {value_rank - 1}), but got {dim}"
            assert len(dst_shape) == len(dst_offset), "dst_shape and dst_offset should have same size"
            assert len(dst_shape) == len(dst_stride), "dst_shape and dst_stride should have same size"
            for label, values in (("dst_shape", dst_shape), ("dst_offset", dst_offset), ("dst_stride", dst_stride)):
                _all_int(label, values)
            for key in ("dst_shape", "dst_offset", "dst_stride"):
                self.arg_type[key] = index.dtype

    def _gather_scatter_checks(index, bound, dim, strides_label, strides, index_shape, offsets):
        assert index.dtype.is_int(), "index should be an integer tensor"
        assert isinstance(bound, int), "bound should be an integer"
        assert isinstance(dim, int), "dim should be an integer"
        rank = len(index.shape)
        _rank_in("index", rank, 1, 5)
        assert 0 <= dim < rank, f"dim should in [0, {rank}), but got {dim}"
        for label, values in ((strides_label, strides), ("index_shape", index_shape), ("offsets", offsets)):
            assert len(values) == rank, f"{label} size should be {rank}"
        for label, values in ((strides_label, strides), ("index_shape", index_shape), ("offsets", offsets)):
            _all_int(label, values)

    class GatherLoad(_SimtBuiltin):
        """Loads ``out`` (shaped like ``index``) from the GM tensor ``src`` along ``dim``,
        the index tile sitting at ``offsets``, as torch.gather does."""

        name = "__builtin_gather_load"

        def __init__(self, src, index, bound: i64, dim, src_stride: i64, index_shape, offsets, out=None):
            assert _is_pointer(src), f"src should be a pointer, but got {src.type}"
            _gather_scatter_checks(index, bound, dim, "src_stride", src_stride, index_shape, offsets)
            assert out, "out is required"
            assert out.shape == index.shape, "Output should have same shape as index"

    class ScatterStore(_SimtBuiltin):
        """Stores the UB ``value`` into the GM tensor ``dst`` at ``index`` along ``dim``."""

        name = "__builtin_scatter_store"

        def __init__(self, dst, value, index, bound: i64, dim, dst_stride: i64, index_shape, offsets):
            import triton.language as tl

            assert _is_pointer(dst), f"dst should be a pointer, but got {dst.type}"
            assert isinstance(value, tl.tensor), "value should be a tensor"
            _gather_scatter_checks(index, bound, dim, "dst_stride", dst_stride, index_shape, offsets)

    for cls in (IndexSelect, IndexPut, GatherLoad, ScatterStore):
        register_custom_op(cls)


def install():
    """Registers the builtins once; without Triton (no dtypes to annotate with) there
    is nothing to call them with, so nothing is registered."""
    try:
        import triton.language as tl
    except ImportError:
        return
    if not hasattr(tl, "int64"):
        return
    from .registry import _REGISTRY

    if "__builtin_gather_load" not in _REGISTRY:
        _define()
