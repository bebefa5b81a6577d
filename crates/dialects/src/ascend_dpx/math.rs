//! Scalar math on LLVM-compatible values: the unary, binary, ternary and
//! quaternary functions (CUDA libdevice style, rounding variants included),
//! the number checks returning `i1`, and `cast` with its kind.

use hivm_ir::opspec::{Fixed, OpSpec, ValueDef, default_attr, one};

use super::CAST_KIND;

const UNARY: &[&str] = &[
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "brev",
    "cbrt",
    "ceil",
    "clz",
    "cos",
    "cosh",
    "cospi",
    "cyl_bessel_i0",
    "cyl_bessel_i1",
    "erf",
    "erfc",
    "erfcinv",
    "erfcx",
    "erfinv",
    "exp10",
    "exp2",
    "exp",
    "expm1",
    "fast_cosf",
    "fast_exp10f",
    "fast_expf",
    "fast_log10f",
    "fast_log2f",
    "fast_logf",
    "fast_sinf",
    "fast_tanf",
    "fast_tanhf",
    "float2half_rn",
    "float2int_rn",
    "float2int_rz",
    "float2int_rd",
    "float2int_ru",
    "float2ll_rn",
    "float2ll_rz",
    "float2ll_rd",
    "float2ll_ru",
    "float2uint_rn",
    "float2uint_rz",
    "float2uint_rd",
    "float2uint_ru",
    "float2ull_rn",
    "float2ull_rz",
    "float2ull_rd",
    "float2ull_ru",
    "float_as_int",
    "float_as_uint",
    "floor",
    "ffs",
    "gamma",
    "half2float",
    "ilogb",
    "int2float_rn",
    "int2float_rz",
    "int2float_rd",
    "int2float_ru",
    "int_as_float",
    "j0",
    "j1",
    "ll2float_rn",
    "ll2float_rz",
    "ll2float_rd",
    "ll2float_ru",
    "llrint",
    "llround",
    "log10",
    "log1p",
    "log2",
    "log",
    "logb",
    "lgamma",
    "nearbyint",
    "nanf",
    "normcdf",
    "normcdfinv",
    "popc",
    "rcp_rd",
    "rcp_rn",
    "rcp_ru",
    "rcp_rz",
    "rcbrt",
    "recip",
    "relu",
    "rint",
    "round",
    "rsqrt",
    "rsqrt_rd",
    "rsqrt_rn",
    "rsqrt_ru",
    "rsqrt_rz",
    "saturatef",
    "signbit",
    "sin",
    "sinh",
    "sinpi",
    "sqrt",
    "sqrt_rd",
    "sqrt_rn",
    "sqrt_ru",
    "sqrt_rz",
    "tan",
    "tanh",
    "tgamma",
    "trunc",
    "uint2float_rn",
    "uint2float_rz",
    "uint2float_rd",
    "uint2float_ru",
    "uint_as_float",
    "ull2float_rn",
    "ull2float_rz",
    "ull2float_rd",
    "ull2float_ru",
    "y0",
    "y1",
    "reciprocal",
];

const BINARY: &[&str] = &[
    "div",
    "fdiv",
    "udiv",
    "pow",
    "umulhi",
    "umul24",
    "uhadd",
    "urhadd",
    "ldexp",
    "copysign",
    "atan2",
    "nextafter",
    "hypot",
    "max",
    "min",
    "mulhi",
    "mul24",
    "hadd",
    "rhadd",
    "scalbn",
    "fdim",
    "fast_dividef",
    "div_rn",
    "div_rz",
    "div_rd",
    "div_ru",
    "fmod",
    "remainder",
    "add_rn",
    "add_rz",
    "add_rd",
    "add_ru",
    "mul_rn",
    "mul_rz",
    "mul_rd",
    "mul_ru",
    "fast_powf",
    "jn",
    "rhypot",
    "sub_rd",
    "sub_rn",
    "sub_ru",
    "sub_rz",
    "yn",
];

const TERNARY: &[&str] =
    &["byte_perm", "fma_rn", "fma_rz", "fma_rd", "fma_ru", "fma", "norm3d", "rnorm3d", "sad", "usad"];

const QUATERNARY: &[&str] = &["norm4d", "rnorm4d"];

const CHECKS: &[&str] = &["finitef", "isfinite", "isinf", "isnan"];

const RES: &[ValueDef] = &[one("res")];
const CHECK_OPERANDS: &[ValueDef] = &[one("in")];
const CHECK_RES: &[ValueDef] = &[one("res").of(Fixed::Int(1))];
const UNARY_OPERANDS: &[ValueDef] = &[one("ins")];
const BINARY_OPERANDS: &[ValueDef] = &[one("in1"), one("in2")];
const TERNARY_OPERANDS: &[ValueDef] = &[one("in1"), one("in2"), one("in3")];
const QUATERNARY_OPERANDS: &[ValueDef] = &[one("in1"), one("in2"), one("in3"), one("in4")];

const CAST: OpSpec = OpSpec {
    name: "ascend_dpx.cast",
    operands: CHECK_OPERANDS,
    attrs: &[default_attr("kind", CAST_KIND, "si_to_fp")],
    results: &[one("out")],
    format: "$in `kind` $kind attr-dict `:` type($in) `to` type($out)",
    ..OpSpec::EMPTY
};

/// `ascend_dpx.<mnemonic>` (leaked once: `specs` builds its list a single time).
fn op_name(mnemonic: &str) -> &'static str {
    Box::leak(format!("ascend_dpx.{mnemonic}").into_boxed_str())
}

fn family(
    names: &[&str],
    operands: &'static [ValueDef],
    results: &'static [ValueDef],
    format: &'static str,
) -> impl Iterator<Item = OpSpec> {
    names.iter().map(move |n| OpSpec { name: op_name(n), operands, results, format, ..OpSpec::EMPTY })
}

pub(super) fn specs() -> &'static [OpSpec] {
    static SPECS: std::sync::OnceLock<Vec<OpSpec>> = std::sync::OnceLock::new();
    SPECS.get_or_init(build)
}

fn build() -> Vec<OpSpec> {
    let mut out: Vec<OpSpec> = Vec::new();
    out.extend(family(UNARY, UNARY_OPERANDS, RES, "$ins attr-dict `:` functional-type(operands, results)"));
    out.extend(family(BINARY, BINARY_OPERANDS, RES, "$in1 `,` $in2 attr-dict `:` functional-type(operands, results)"));
    out.extend(family(
        TERNARY,
        TERNARY_OPERANDS,
        RES,
        "$in1 `,` $in2 `,` $in3 attr-dict `:` functional-type(operands, results)",
    ));
    out.extend(family(
        QUATERNARY,
        QUATERNARY_OPERANDS,
        RES,
        "$in1 `,` $in2 `,` $in3 `,` $in4 attr-dict `:` functional-type(operands, results)",
    ));
    out.extend(family(CHECKS, CHECK_OPERANDS, CHECK_RES, "$in attr-dict `:` functional-type(operands, results)"));
    out.push(CAST);
    out
}
