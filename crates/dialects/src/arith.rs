//! The `arith` dialect: constants, binary ops, comparisons, select and casts.
//! Ops of one shape are generated from tables so each is declared once.

use hivm_ir::attrs::AttrData;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{OpSpec, ValueDef, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Attribute, Dialect, Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::{self, is_float_like, is_int_like, opaque_arg, opaque_attr, type_str};

const INT_OVERFLOW_OPS: &[&str] = &["addi", "subi", "muli", "shli"];
const INT_OPS: &[&str] = &[
    "divsi",
    "divui",
    "remsi",
    "remui",
    "andi",
    "ori",
    "xori",
    "shrsi",
    "shrui",
    "maxsi",
    "maxui",
    "minsi",
    "minui",
    "ceildivsi",
    "ceildivui",
    "floordivsi",
];
const FLOAT_OPS: &[&str] = &["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"];
const CASTS: &[&str] = &[
    "index_cast",
    "index_castui",
    "extsi",
    "extui",
    "extf",
    "truncf",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "bitcast",
];
/// `arith.cmpi` predicates, in the order of their numbers.
pub const CMPI: &[&str] = &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
pub const CMPF: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
];
/// The `predicate` attribute of `arith.cmpf` (`float`) or `arith.cmpi` named
/// `pred` (`oeq`, `slt`, ...), as bodies built by other dialects need it.
pub fn cmp_predicate(ir: &mut Ir, float: bool, pred: &str) -> Option<Attribute> {
    let table = if float { CMPF } else { CMPI };
    let index = table.iter().position(|p| *p == pred)?;
    let i64 = ir.int_type(64);
    Some(ir.int_attr(index as i128, i64))
}

/// The name of a `cmpf` (`float`) or `cmpi` `predicate` attribute.
pub fn predicate_name(ir: &Ir, float: bool, a: Attribute) -> Option<&'static str> {
    let table = if float { CMPF } else { CMPI };
    match ir.attr_data(a) {
        hivm_ir::AttrData::Integer { value, .. } => usize::try_from(*value).ok().and_then(|i| table.get(i).copied()),
        _ => None,
    }
}

const FASTMATH: &[&str] = &["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];
const OVERFLOW: &[&str] = &["nsw", "nuw"];

/// Canonical text of a flag set, as MLIR prints bit enums.
fn flags_text(mnemonic: &str, all: &[&str], set: &[bool]) -> String {
    let names: Vec<&str> = all.iter().zip(set).filter(|(_, s)| **s).map(|(n, _)| *n).collect();
    let body = if names.is_empty() {
        "none".to_string()
    } else if mnemonic == "fastmath" && names.len() == all.len() {
        "fast".to_string()
    } else if mnemonic == "fastmath" {
        // MLIR's bit-enum printer: fastmath flags without spaces, overflow flags with.
        names.join(",")
    } else {
        names.join(", ")
    };
    format!("{mnemonic}<{body}>")
}

/// Canonicalizes `#arith.fastmath<...>` and `#arith.overflow<...>` bodies
/// (flags in declaration order, `fast` for all fastmath flags); other arith
/// attributes are kept as written.
pub(crate) fn check_attr(body: &str) -> Result<String, String> {
    let Some((mnemonic, rest)) = body.split_once('<') else { return Ok(body.to_string()) };
    let all = match mnemonic {
        "fastmath" => FASTMATH,
        "overflow" => OVERFLOW,
        _ => return Ok(body.to_string()),
    };
    let inner = rest.strip_suffix('>').unwrap_or(rest);
    let mut set = vec![false; all.len()];
    for f in inner.split(',').map(str::trim) {
        match f {
            "none" => {}
            "fast" if mnemonic == "fastmath" => set.iter_mut().for_each(|s| *s = true),
            _ => match all.iter().position(|n| *n == f) {
                Some(i) => set[i] = true,
                None => return Err(format!("expected one of [{}] for {mnemonic} flags, got: {f}", all.join(", "))),
            },
        }
    }
    Ok(flags_text(mnemonic, all, &set))
}

fn parse_flags(p: &mut Parser<'_>, mnemonic: &str, all: &[&str]) -> PResult<Attribute> {
    p.expect(Tok::Less, "'<'")?;
    let mut set = vec![false; all.len()];
    loop {
        let pos = p.pos();
        let f = p.parse_keyword("flag")?;
        match f {
            "none" => {}
            "fast" if mnemonic == "fastmath" => set.iter_mut().for_each(|s| *s = true),
            _ => match all.iter().position(|n| *n == f) {
                Some(i) => set[i] = true,
                None => {
                    return p
                        .error_at(pos, format!("expected one of [{}] for {mnemonic} flags, got: {f}", all.join(", ")));
                }
            },
        }
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    p.expect(Tok::Greater, "'>'")?;
    Ok(opaque_attr(p.ir, "arith", &flags_text(mnemonic, all, &set)))
}

fn default_overflow(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    vec![("overflowFlags", opaque_attr(ir, "arith", "overflow<none>"))]
}

fn default_fastmath(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    vec![("fastmath", opaque_attr(ir, "arith", "fastmath<none>"))]
}

/// Optional `overflow<..>` / `fastmath<..>` clause of a binary op.
fn parse_flag_clause(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    for (kw, key, all) in [("overflow", "overflowFlags", OVERFLOW), ("fastmath", "fastmath", FASTMATH)] {
        if p.parse_optional_keyword(kw) {
            let a = parse_flags(p, kw, all)?;
            let k = p.ir.sym(key);
            r.attrs.push((k, a));
        }
    }
    Ok(())
}

fn print_flag_clause(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    for (key, mnemonic) in [("overflowFlags", "overflow"), ("fastmath", "fastmath")] {
        if let Some(a) = ir.get_attr(op, key)
            && let Some(arg) = opaque_arg(ir, a, mnemonic)
            && arg != "none"
        {
            p.push(&format!(" {mnemonic}<{arg}>"));
        }
    }
}

fn parse_binary(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    parse_flag_clause(p, r)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    util::resolve_all(p, &ops, ty, r)?;
    r.result_types.push(ty);
    Ok(())
}

fn print_binary(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    print_flag_clause(p, op);
    p.print_optional_attr_dict(op, &["overflowFlags", "fastmath"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn check_operand_kinds(ir: &Ir, op: OpId, float: bool) -> Result<(), hivm_ir::dialect::VerifyError> {
    let expected = if ir.op_name(op) == "arith.negf" { 1 } else { 2 };
    if ir.operands(op).len() != expected {
        return Err(format!("expected {expected} operands, but found {}", ir.operands(op).len()).into());
    }
    let what = if float { "floating-point-like" } else { "signless-integer-like" };
    for (i, v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(*v);
        let ok = if float { is_float_like(ir, t) } else { is_int_like(ir, t) };
        if !ok {
            return Err(format!("operand #{i} must be {what}, but got '{}'", type_str(ir, t)).into());
        }
    }
    Ok(())
}

fn verify_int_binary(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_operand_kinds(ir, op, false)
}

fn verify_float_binary(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_operand_kinds(ir, op, true)
}

// ----- constant -----

fn parse_constant(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let value = p.parse_attribute(None)?;
    let ty = match p.ir.attr_data(value) {
        AttrData::Integer { ty, .. } | AttrData::Float { bits: _, ty } | AttrData::DenseElements { ty, .. } => *ty,
        AttrData::DenseResource { ty, .. } | AttrData::SparseElements { ty, .. } => *ty,
        _ => return p.error_at(pos, "expected a typed attribute for arith.constant"),
    };
    let k = p.ir.sym("value");
    r.attrs.push((k, value));
    r.result_types.push(ty);
    Ok(())
}

fn print_constant(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["value"]);
    p.push(" ");
    if let Some(v) = ir.get_attr(op, "value") {
        p.print_attr(v, Elide::Never);
    }
}

fn constant_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    let r = ir.result(op, 0);
    let ty = ir.value_type(r);
    let name = match ir.get_attr(op, "value").map(|a| ir.attr_data(a)) {
        Some(AttrData::Integer { value, .. }) => match ir.type_data(ty) {
            TypeData::Integer { width: 1, .. } => if *value != 0 { "true" } else { "false" }.to_string(),
            TypeData::Integer { .. } => format!("c{value}_{}", type_str(ir, ty)),
            _ => format!("c{value}"),
        },
        _ => "cst".to_string(),
    };
    set(r, name);
}

fn verify_constant(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(v) = ir.get_attr(op, "value") else { return Err("requires attribute 'value'".into()) };
    let rt = ir.value_type(ir.result(op, 0));
    if let TypeData::Integer { signedness, .. } = ir.type_data(rt)
        && *signedness != hivm_ir::types::Signedness::Signless
    {
        return Err("integer return type must be signless".into());
    }
    let at = match ir.attr_data(v) {
        AttrData::Integer { ty, .. }
        | AttrData::Float { ty, .. }
        | AttrData::DenseElements { ty, .. }
        | AttrData::DenseResource { ty, .. }
        | AttrData::SparseElements { ty, .. } => *ty,
        _ => return Err("value must be an integer, float, or elements attribute".into()),
    };
    if at != rt {
        return Err("failed to verify that all of {value, result} have same type".into());
    }
    Ok(())
}

// ----- comparisons -----

fn i1_like(ir: &mut Ir, t: Type) -> Type {
    let i1 = ir.int_type(1);
    match ir.type_data(t).clone() {
        TypeData::Vector { shape, scalable, .. } => {
            ir.ty(TypeData::Vector { shape, scalable, elem: i1, encoding: None })
        }
        TypeData::RankedTensor { shape, encoding, .. } => ir.ty(TypeData::RankedTensor { shape, elem: i1, encoding }),
        TypeData::UnrankedTensor { .. } => ir.ty(TypeData::UnrankedTensor { elem: i1 }),
        _ => i1,
    }
}

fn parse_cmp(p: &mut Parser<'_>, r: &mut OpParseResult, preds: &[&str], float: bool) -> PResult<()> {
    let pos = p.pos();
    let pred =
        if p.is(Tok::String) { p.parse_utf8_string("predicate")? } else { p.parse_keyword("predicate")?.to_string() };
    let Some(idx) = preds.iter().position(|x| *x == pred) else {
        return p.error_at(pos, format!("expected predicate to be one of: {}", preds.join(", ")));
    };
    p.expect(Tok::Comma, "','")?;
    let ops = p.parse_operand_list()?;
    if float {
        parse_flag_clause(p, r)?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    util::resolve_all(p, &ops, ty, r)?;
    let i64t = p.ir.int_type(64);
    let (k, v) = (p.ir.sym("predicate"), p.ir.int_attr(idx as i128, i64t));
    r.attrs.push((k, v));
    let rt = i1_like(p.ir, ty);
    r.result_types.push(rt);
    Ok(())
}

fn parse_cmpi(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_cmp(p, r, CMPI, false)
}

fn parse_cmpf(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_cmp(p, r, CMPF, true)
}

fn print_cmp(p: &mut Printer<'_>, op: OpId, preds: &[&str]) {
    let ir = p.ir;
    let idx = util::int_attr(ir, op, "predicate").unwrap_or(0) as usize;
    p.push(" ");
    p.push(preds.get(idx).copied().unwrap_or("eq"));
    p.push(", ");
    p.print_values(ir.operands(op));
    print_flag_clause(p, op);
    p.print_optional_attr_dict(op, &["predicate", "fastmath"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

fn print_cmpi(p: &mut Printer<'_>, op: OpId) {
    print_cmp(p, op, CMPI)
}

fn print_cmpf(p: &mut Printer<'_>, op: OpId) {
    print_cmp(p, op, CMPF)
}

fn verify_cmp(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if ir.operands(op).len() != 2 {
        return Err(format!("expected 2 operands, but found {}", ir.operands(op).len()).into());
    }
    let (a, b) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    if a != b {
        return Err("failed to verify that all of {lhs, rhs} have same type".into());
    }
    Ok(())
}

// ----- select -----

fn parse_select(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let tys = p.parse_colon_type_list()?;
    if ops.len() != 3 {
        return p.error_at(pos, format!("expected 3 operands, but found {}", ops.len()));
    }
    let (cond_ty, ty) = match tys[..] {
        [t] => (p.ir.int_type(1), t),
        [c, t] => (c, t),
        _ => return p.error_at(pos, "expected one or two types"),
    };
    let c = p.resolve_operand(&ops[0], cond_ty)?;
    let a = p.resolve_operand(&ops[1], ty)?;
    let b = p.resolve_operand(&ops[2], ty)?;
    r.operands = vec![c, a, b];
    r.result_types.push(ty);
    Ok(())
}

fn print_select(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    let ct = ir.value_type(ir.operand(op, 0));
    if !ir.type_data(ct).is_signless_int(1) {
        p.print_type(ct);
        p.push(", ");
    }
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_select(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let ct = ir.value_type(ir.operand(op, 0));
    if !ir.type_data(util::element_or_self(ir, ct)).is_signless_int(1) {
        return Err(format!("operand #0 must be bool-like, but got '{}'", type_str(ir, ct)).into());
    }
    let (a, b, r) =
        (ir.value_type(ir.operand(op, 1)), ir.value_type(ir.operand(op, 2)), ir.value_type(ir.result(op, 0)));
    if a != b || a != r {
        return Err("failed to verify that all of {true_value, false_value, result} have same type".into());
    }
    Ok(())
}

fn parse_trunci(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let u = p.parse_operand()?;
    parse_flag_clause(p, r)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let from = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let to = p.parse_type()?;
    let v = p.resolve_operand(&u, from)?;
    r.operands.push(v);
    r.result_types.push(to);
    Ok(())
}

fn print_trunci(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    print_flag_clause(p, op);
    p.print_optional_attr_dict(op, &["overflowFlags"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_cast(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let name = ir.op_name(op);
    let (from, to) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let (fe, te) = (util::element_or_self(ir, from), util::element_or_self(ir, to));
    let width = |t: Type| match ir.type_data(t) {
        TypeData::Integer { width, .. } => Some(*width),
        TypeData::Float(k) => Some(k.bit_width()),
        _ => None,
    };
    let bad = || {
        Err(format!(
            "operand type '{}' and result type '{}' are cast incompatible",
            type_str(ir, from),
            type_str(ir, to)
        )
        .into())
    };
    match name {
        "arith.extsi" | "arith.extui" | "arith.extf" if width(te) <= width(fe) => {
            return Err("result type must be wider than operand type".into());
        }
        "arith.trunci" | "arith.truncf" if width(te) >= width(fe) => {
            return Err("result type must be narrower than operand type".into());
        }
        "arith.index_cast" | "arith.index_castui" => {
            let fi = matches!(ir.type_data(fe), TypeData::Index);
            let ti = matches!(ir.type_data(te), TypeData::Index);
            if fi == ti || !is_int_like(ir, from) || !is_int_like(ir, to) {
                return bad();
            }
        }
        "arith.bitcast" if width(fe) != width(te) => return bad(),
        _ => {}
    }
    Ok(())
}

fn parse_negf(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_binary(p, r)
}

pub fn dialect() -> Dialect {
    let pure = Traits::PURE | Traits::SAME_OPERANDS_AND_RESULT_TYPE | Traits::ELEMENTWISE;
    let mut ops = vec![
        OpDef::new("arith.constant")
            .traits(Traits::PURE | Traits::CONSTANT_LIKE)
            .inherent(&["value"])
            .assembly(parse_constant, print_constant)
            .verifier(verify_constant)
            .names(constant_names),
        OpDef::new("arith.cmpi")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE)
            .inherent(&["predicate"])
            .assembly(parse_cmpi, print_cmpi)
            .verifier(verify_cmp),
        OpDef::new("arith.cmpf")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE)
            .inherent(&["predicate", "fastmath"])
            .assembly(parse_cmpf, print_cmpf)
            .verifier(verify_cmp)
            .defaults(&["fastmath"], default_fastmath),
        OpDef::new("arith.select")
            .arity((3, Some(3)), (1, Some(1)), 0)
            .traits(Traits::PURE)
            .assembly(parse_select, print_select)
            .verifier(verify_select),
        OpDef::new("arith.trunci")
            .arity((1, Some(1)), (1, Some(1)), 0)
            .traits(Traits::PURE)
            .inherent(&["overflowFlags"])
            .assembly(parse_trunci, print_trunci)
            .verifier(verify_cast)
            .defaults(&["overflowFlags"], default_overflow),
        OpDef::new("arith.negf")
            .arity((1, Some(1)), (1, Some(1)), 0)
            .traits(pure)
            .inherent(&["fastmath"])
            .assembly(parse_negf, print_binary)
            .invariants(verify_float_binary)
            .defaults(&["fastmath"], default_fastmath),
    ];
    for name in INT_OVERFLOW_OPS {
        ops.push(
            OpDef::new(leak(format!("arith.{name}")))
                .arity((2, Some(2)), (1, Some(1)), 0)
                .traits(pure)
                .inherent(&["overflowFlags"])
                .assembly(parse_binary, print_binary)
                .invariants(verify_int_binary)
                .defaults(&["overflowFlags"], default_overflow),
        );
    }
    for name in INT_OPS {
        ops.push(
            OpDef::new(leak(format!("arith.{name}")))
                .arity((2, Some(2)), (1, Some(1)), 0)
                .traits(pure)
                .assembly(parse_binary, print_binary)
                .invariants(verify_int_binary),
        );
    }
    for name in FLOAT_OPS {
        ops.push(
            OpDef::new(leak(format!("arith.{name}")))
                .arity((2, Some(2)), (1, Some(1)), 0)
                .traits(pure)
                .inherent(&["fastmath"])
                .assembly(parse_binary, print_binary)
                .invariants(verify_float_binary)
                .defaults(&["fastmath"], default_fastmath),
        );
    }
    for name in CASTS {
        ops.push(
            OpDef::new(leak(format!("arith.{name}")))
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["roundingmode", "fastmath"])
                .assembly(util::parse_cast, util::print_cast)
                .verifier(verify_cast),
        );
    }
    ops.extend(
        [ADDUI_EXTENDED, extended_mul("arith.mulsi_extended"), extended_mul("arith.mului_extended")]
            .map(|s| s.def().names(hivm_ir::opspec::name_results_after_defs)),
    );
    let mut d = Dialect::new("arith", ops);
    d.check_attr = Some(check_attr);
    d
}

/// `%sum, %overflow = arith.addui_extended %a, %b : i32, i1`.
const ADDUI_EXTENDED: OpSpec = OpSpec {
    name: "arith.addui_extended",
    operands: &[one("lhs").like("sum"), one("rhs").like("sum")],
    results: &[one("sum"), one("overflow")],
    format: "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)",
    traits: Traits::PURE.with(Traits::COMMUTATIVE),
    ..OpSpec::EMPTY
};

/// `%low, %high = arith.mulsi_extended %a, %b : i32`.
const fn extended_mul(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("lhs"), one("rhs").like("lhs")];
    const RESULTS: &[ValueDef] = &[one("low").like("lhs"), one("high").like("lhs")];
    OpSpec {
        name,
        operands: OPERANDS,
        results: RESULTS,
        format: "$lhs `,` $rhs attr-dict `:` type($lhs)",
        traits: Traits::PURE.with(Traits::COMMUTATIVE),
        ..OpSpec::EMPTY
    }
}

/// Op names built from tables live for the whole program, like the registry.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}
