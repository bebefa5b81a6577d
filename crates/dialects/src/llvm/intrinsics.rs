//! LLVM intrinsics: the elementwise ones written as calls
//! (`llvm.intr.smin(%a, %b) : (i32, i32) -> i32`) and those with a syntax of
//! their own (stack and vararg handling, invariant regions, exception type
//! ids, alias-scope declarations, constrained truncation, subvector insert
//! and extract), plus the generic-only `vector.interleave2`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, EnumKind, Fixed, IntEnumKind, OpSpec, attr, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use super::memory::is_llvm_ptr;
use crate::util::{parse_functional_type_tail, type_str};

// ----- intrinsics: `%r = llvm.intr.smin(%a, %b) : (i32, i32) -> i32` -----

/// Intrinsics on integers (no properties).
const INT_INTRINSICS: &[&str] = &["smin", "smax", "umin", "umax", "ctpop", "bitreverse", "bswap"];
/// Intrinsics on floats, which carry fast-math flags.
const FLOAT_INTRINSICS: &[&str] = &[
    "exp",
    "exp2",
    "exp10",
    "log",
    "log2",
    "log10",
    "sqrt",
    "fabs",
    "floor",
    "ceil",
    "trunc",
    "round",
    "roundeven",
    "rint",
    "nearbyint",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "pow",
    "fma",
    "fmuladd",
    "minnum",
    "maxnum",
    "minimum",
    "maximum",
    "copysign",
];

fn parse_intrinsic(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = crate::util::parse_paren_operand_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    parse_functional_type_tail(p, r, &ops)?;
    Ok(())
}

fn print_intrinsic(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(ir.operands(op));
    p.push(")");
    super::print_attrs_without_defaults(p, op, &[]);
    p.push(" : ");
    p.print_functional_type(op);
}

fn intrinsic_defs() -> Vec<OpDef> {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let mut defs: Vec<OpDef> = INT_INTRINSICS
        .iter()
        .map(|n| {
            OpDef::new(leak(format!("llvm.intr.{n}")))
                .arity((1, None), (1, Some(1)), 0)
                .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
                .assembly(parse_intrinsic, print_intrinsic)
        })
        .collect();
    defs.extend(FLOAT_INTRINSICS.iter().map(|n| {
        OpDef::new(leak(format!("llvm.intr.{n}")))
            .arity((1, None), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["fastmathFlags"])
            .defaults(&["fastmathFlags"], super::fastmath_default)
            .assembly(parse_intrinsic, print_intrinsic)
    }));
    defs
}

/// The pointer `invariant.start` returns and `invariant.end` takes.
const DEFAULT_PTR: Fixed = Fixed::Dialect { dialect: "llvm", body: "ptr", summary: "LLVM pointer in address space 0" };

const ROUNDING_MODE: IntEnumKind = IntEnumKind {
    cases: &[
        ("towardzero", 0),
        ("tonearest", 1),
        ("upward", 2),
        ("downward", 3),
        ("tonearestaway", 4),
        ("dynamic", 7),
        ("invalid", -1),
    ],
    width: 64,
    summary: "LLVM Rounding Mode whose minimum value is 0",
};

const FP_EXCEPTION_BEHAVIOR: IntEnumKind = IntEnumKind {
    cases: &[("ignore", 0), ("maytrap", 1), ("strict", 2)],
    width: 64,
    summary: "LLVM Exception Behavior",
};

const ALIAS_SCOPE: AttrKind =
    AttrKind::Enum(EnumKind { dialect: "llvm", mnemonic: "alias_scope", summary: "LLVM dialect alias scope" });

const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "llvm.intr.eh.typeid.for",
        operands: &[one("type_info")],
        results: &[one("res")],
        format: "$type_info attr-dict `:` functional-type(operands, results)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec { name: "llvm.intr.stacksave", results: &[one("res")], format: "attr-dict `:` type($res)", ..OpSpec::EMPTY },
    OpSpec {
        name: "llvm.intr.stackrestore",
        operands: &[one("ptr")],
        format: "$ptr attr-dict `:` type($ptr)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.experimental.noalias.scope.decl",
        attrs: &[attr("scope", ALIAS_SCOPE)],
        format: "$scope attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.experimental.constrained.fptrunc",
        operands: &[one("arg_0")],
        attrs: &[
            attr("roundingmode", AttrKind::IntEnum(ROUNDING_MODE)),
            attr("fpExceptionBehavior", AttrKind::IntEnum(FP_EXCEPTION_BEHAVIOR)),
        ],
        results: &[one("res")],
        format: "$arg_0 $roundingmode $fpExceptionBehavior attr-dict `:` type($arg_0) `to` type($res)",
        traits: Traits::PURE,
        verify: Some(verify_rounding_mode),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.invariant.start",
        operands: &[one("ptr")],
        attrs: &[attr("size", AttrKind::Int(64))],
        results: &[one("res").of(DEFAULT_PTR)],
        format: "$size `,` $ptr attr-dict `:` type($ptr)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.invariant.end",
        operands: &[one("start").of(DEFAULT_PTR), one("ptr")],
        attrs: &[attr("size", AttrKind::Int(64))],
        format: "$start `,` $size `,` $ptr attr-dict `:` type($ptr)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.vastart",
        operands: &[one("arg_list")],
        format: "$arg_list attr-dict `:` type($arg_list)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.vaend",
        operands: &[one("arg_list")],
        format: "$arg_list attr-dict `:` type($arg_list)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.vacopy",
        operands: &[one("dest_list"), one("src_list")],
        format: "$src_list `to` $dest_list attr-dict `:` type(operands)",
        verify: Some(verify_pointer_operands),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.vector.insert",
        operands: &[one("dstvec").like("res"), one("srcvec")],
        attrs: &[attr("pos", AttrKind::Int(64))],
        results: &[one("res")],
        format: "$srcvec `,` $dstvec `[` $pos `]` attr-dict `:` type($srcvec) `into` type($res)",
        traits: Traits::PURE,
        verify: Some(verify_subvector),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.intr.vector.extract",
        operands: &[one("srcvec")],
        attrs: &[attr("pos", AttrKind::Int(64))],
        results: &[one("res")],
        format: "$srcvec `[` $pos `]` attr-dict `:` type($res) `from` type($srcvec)",
        traits: Traits::PURE,
        verify: Some(verify_subvector),
        ..OpSpec::EMPTY
    },
];

/// Every operand of these intrinsics is an LLVM pointer (in any address space).
fn verify_pointer_operands(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for (i, v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(*v);
        if !is_llvm_ptr(ir, t) {
            return Err(format!("operand #{i} must be LLVM pointer type, but got '{}'", type_str(ir, t)).into());
        }
    }
    Ok(())
}

fn verify_rounding_mode(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.get_attr(op, "roundingmode").and_then(|a| ir.as_int(a)).is_some_and(|v| v < 0) {
        return Err(format!("attribute 'roundingmode' failed to satisfy constraint: {}", ROUNDING_MODE.summary).into());
    }
    Ok(())
}

/// A vector type's element count (the minimum one, for a scalable vector),
/// its element width and whether it is scalable.
fn vector_parts(ir: &Ir, t: Type) -> Option<(i64, u32, bool)> {
    let TypeData::Vector { shape, scalable, elem, .. } = ir.type_data(t) else { return None };
    let bits = match ir.type_data(*elem) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Float(k) => k.bit_width(),
        _ if is_llvm_ptr(ir, *elem) => 64,
        _ => 0,
    };
    Some((shape.iter().product(), bits, scalable.iter().any(|s| *s)))
}

/// `vector.insert` and `vector.extract`: LLVM vectors no wider than 2^17
/// bits, and no scalable subvector of a fixed-length one.
fn verify_subvector(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let insert = ir.op_name(op) == "llvm.intr.vector.insert";
    let (inner, inner_name) = if insert { (ir.operand(op, 1), "operand #1") } else { (ir.result(op, 0), "result #0") };
    let mut parts = Vec::new();
    for (v, what) in [(ir.operand(op, 0), "operand #0"), (inner, inner_name)] {
        let t = ir.value_type(v);
        match vector_parts(ir, t) {
            Some(x) => parts.push(x),
            None => {
                let t = type_str(ir, t);
                return Err(format!("{what} must be LLVM dialect-compatible vector type, but got '{t}'").into());
            }
        }
    }
    let (o, i) = (parts[0], parts[1]);
    if o.0 * i64::from(o.1) > 131072 || i.0 * i64::from(i.1) > 131072 {
        return Err("failed to verify that vectors are not bigger than 2^17 bits.".into());
    }
    if i.2 && !o.2 {
        let what = if insert { "inserting scalable into" } else { "extracting scalable from" };
        return Err(format!("failed to verify that it is not {what} fixed-length vectors.").into());
    }
    Ok(())
}

/// `llvm.intr.vector.interleave2` has no custom syntax: two vectors of one
/// type make one of twice their length.
fn verify_interleave2(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (a, b) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let TypeData::Vector { shape, scalable, elem, .. } = ir.type_data(a).clone() else {
        return Err(
            format!("operand #0 must be LLVM dialect-compatible vector type, but got '{}'", type_str(ir, a)).into()
        );
    };
    if a != b {
        return Err("failed to verify that all of {vec1, vec2} have same type".into());
    }
    let mut want = shape.clone();
    if let Some(n) = want.first_mut() {
        *n *= 2;
    }
    let res = ir.type_data(ir.value_type(ir.result(op, 0)));
    if !matches!(res, TypeData::Vector { shape: s, scalable: sc, elem: e, .. } if *s == want && *sc == scalable && *e == elem)
    {
        return Err("failed to verify that result has twice as many elements as 'vec1'".into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut defs = intrinsic_defs();
    defs.extend(SPECS.iter().map(|s| s.def()));
    defs.push(
        OpDef::new("llvm.intr.vector.interleave2")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .verifier(verify_interleave2),
    );
    defs
}
