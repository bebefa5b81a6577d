"""``tl.dtype.cname``: the C type name of a Triton dtype, which triton-ascend adds so
that kernels can build implementation symbols such as ``"add_" + a.dtype.cname``."""

_CNAMES = {
    "int1": "bool",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "fp16": "half",
    "bf16": "bfloat16_t",
    "fp32": "float",
    "fp64": "double",
    "fp8e5": "float8_e5m2_t",
    "fp8e4nv": "float8_e4m3_t",
}


def cname(dtype) -> str:
    """Other dtypes keep their own name, as in triton-ascend."""
    return _CNAMES.get(str(dtype), str(dtype))


def install():
    """Adds the property to Triton's dtype class when Triton is there and lacks it."""
    try:
        import triton.language as tl
    except ImportError:
        return
    dtype = getattr(tl, "dtype", None)
    if isinstance(dtype, type) and not hasattr(dtype, "cname"):
        dtype.cname = property(cname)
