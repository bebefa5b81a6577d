//! MLIR's `math` dialect: elementwise functions on floats and integers,
//! each a declarative definition (`%r = math.sqrt %x fastmath<fast> : f32`),
//! and AscendNPU-IR's `mathExt`, which adds four float functions in the same
//! two shapes (hfusion's `ilogb`, `lgamma`, `ldexp` and `divfhp` bodies).

use hivm_ir::opspec::{AttrDef, AttrKind, EnumKind, OpSpec, ValueDef, default_attr, one};
use hivm_ir::{Dialect, OpDef, Traits};

const FASTMATH: &[AttrDef] = &[default_attr(
    "fastmath",
    AttrKind::Enum(EnumKind { dialect: "arith", mnemonic: "fastmath", summary: "Floating point fast math flags" }),
    "none",
)];
const RESULT: &[ValueDef] = &[one("result")];

/// `$operand (fastmath<..>)? attr-dict : type($result)`.
const fn float_unary(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("operand").like("result")];
    OpSpec {
        name,
        operands: OPERANDS,
        attrs: FASTMATH,
        results: RESULT,
        format: "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

/// `$lhs, $rhs (fastmath<..>)? attr-dict : type($result)`.
const fn float_binary(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("lhs").like("result"), one("rhs").like("result")];
    OpSpec {
        name,
        operands: OPERANDS,
        attrs: FASTMATH,
        results: RESULT,
        format: "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

/// `$operand attr-dict : type($result)` on integers.
const fn int_unary(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("operand").like("result")];
    OpSpec {
        name,
        operands: OPERANDS,
        results: RESULT,
        format: "$operand attr-dict `:` type($result)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const FMA: OpSpec = OpSpec {
    name: "math.fma",
    operands: &[one("a").like("result"), one("b").like("result"), one("c").like("result")],
    attrs: FASTMATH,
    results: RESULT,
    format: "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const IPOWI: OpSpec = OpSpec {
    name: "math.ipowi",
    operands: &[one("lhs").like("result"), one("rhs").like("result")],
    results: RESULT,
    format: "$lhs `,` $rhs attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const FPOWI: OpSpec = OpSpec {
    name: "math.fpowi",
    operands: &[one("lhs"), one("rhs")],
    attrs: FASTMATH,
    results: &[one("result").like("lhs")],
    format: "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const SINCOS: OpSpec = OpSpec {
    name: "math.sincos",
    operands: &[one("operand")],
    attrs: FASTMATH,
    results: &[one("sin").like("operand"), one("cos").like("operand")],
    format: "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const CLAMPF: OpSpec = OpSpec {
    name: "math.clampf",
    operands: &[one("value").like("result"), one("min").like("result"), one("max").like("result")],
    attrs: FASTMATH,
    results: RESULT,
    format: "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const FLOAT_UNARY: &[&str] = &[
    "math.absf",
    "math.acos",
    "math.acosh",
    "math.asin",
    "math.asinh",
    "math.atan",
    "math.atanh",
    "math.cbrt",
    "math.ceil",
    "math.cos",
    "math.cosh",
    "math.erf",
    "math.erfc",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.floor",
    "math.log",
    "math.log10",
    "math.log1p",
    "math.log2",
    "math.round",
    "math.roundeven",
    "math.rsqrt",
    "math.sin",
    "math.sinh",
    "math.sqrt",
    "math.tan",
    "math.tanh",
    "math.trunc",
];
const FLOAT_BINARY: &[&str] = &["math.atan2", "math.copysign", "math.powf"];
const INT_UNARY: &[&str] = &["math.absi", "math.ctlz", "math.ctpop", "math.cttz"];

pub fn dialect() -> Dialect {
    let mut specs: Vec<OpSpec> = FLOAT_UNARY.iter().map(|n| float_unary(n)).collect();
    specs.extend(FLOAT_BINARY.iter().map(|n| float_binary(n)));
    specs.extend(INT_UNARY.iter().map(|n| int_unary(n)));
    specs.extend([FMA, IPOWI, FPOWI, CLAMPF]);
    let mut ops: Vec<OpDef> = specs.into_iter().map(OpSpec::def).collect();
    ops.push(SINCOS.def().names(hivm_ir::opspec::name_results_after_defs));
    Dialect::new("math", ops)
}

/// AscendNPU-IR's `mathExt` dialect: `ilogb` and `lgamma` take one float
/// operand, `ldexp` and the high-precision division `divfhp` two, written as
/// `math`'s float functions are.
pub fn ext_dialect() -> Dialect {
    let ops = vec![
        float_unary("mathExt.ilogb").def(),
        float_unary("mathExt.lgamma").def(),
        float_binary("mathExt.ldexp").def(),
        float_binary("mathExt.divfhp").def(),
    ];
    Dialect::new("mathExt", ops)
}
