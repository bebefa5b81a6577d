//! LLVM's value ops: integer and float arithmetic with their flags, casts,
//! comparisons, constants, aggregates and vector elements, each one
//! declarative definition where the format says it all.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, FormatState, OpSpec, ValueDef, Var, attr, default_attr, one,
    opt_attr, var,
};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::push_attr;

const BINARY: &[ValueDef] = &[one("lhs").like("res"), one("rhs").like("res")];
const RES_LIKE_LHS: &[ValueDef] = &[one("res")];
const ARG: &[ValueDef] = &[one("arg")];
const RES: &[ValueDef] = &[one("res")];

// ----- flags -----

/// `custom<OverflowFlags>($overflowFlags)`: ` overflow<nsw, nuw>` when any
/// flag is set (nsw = 1, nuw = 2).
const OVERFLOW_FLAGS: CustomDirective =
    CustomDirective { name: "OverflowFlags", parse: parse_overflow, print: print_overflow };

fn parse_overflow(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let mut bits = 0i128;
    if p.parse_optional_keyword("overflow") {
        p.expect(Tok::Less, "'<'")?;
        loop {
            let pos = p.pos();
            match p.parse_keyword("overflow flag")? {
                "nsw" => bits |= 1,
                "nuw" => bits |= 2,
                "none" => {}
                f => {
                    return p
                        .error_at(pos, format!("expected one of [none, nsw, nuw] for LLVM overflow flags, got: {f}"));
                }
            }
            if !p.consume_if(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    let t = p.ir.int_type(32);
    let a = p.ir.int_attr(bits, t);
    st.set_attr(args[0], a);
    Ok(())
}

fn print_overflow(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let Var::Attr(i) = args[0] else { return };
    let bits = p.ir.get_attr(op, c.spec.attrs[i].name).and_then(|a| p.ir.as_int(a)).unwrap_or(0);
    let names: Vec<&str> = [(1, "nsw"), (2, "nuw")].iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect();
    if !names.is_empty() {
        p.push(&format!(" overflow<{}>", names.join(", ")));
    }
}

const OVERFLOW_ATTRS: &[AttrDef] = &[default_attr("overflowFlags", AttrKind::Int(32), "0")];
const FASTMATH_ATTRS: &[AttrDef] = &[default_attr("fastmathFlags", AttrKind::Any, "#llvm.fastmath<none>")];
const EXACT_ATTRS: &[AttrDef] = &[opt_attr("isExact", AttrKind::Unit)];

const fn overflow_op(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: BINARY,
        attrs: OVERFLOW_ATTRS,
        results: RES_LIKE_LHS,
        format: "$lhs `,` $rhs `` custom<OverflowFlags>($overflowFlags) attr-dict `:` type($res)",
        customs: &[OVERFLOW_FLAGS],
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn exact_op(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: BINARY,
        attrs: EXACT_ATTRS,
        results: RES_LIKE_LHS,
        format: "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn plain_binary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: BINARY,
        results: RES_LIKE_LHS,
        format: "$lhs `,` $rhs attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn float_binary(name: &'static str) -> OpSpec {
    OpSpec { attrs: FASTMATH_ATTRS, ..plain_binary(name) }
}

const fn cast(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: ARG,
        results: RES,
        format: "$arg attr-dict `:` type($arg) `to` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn nullary(name: &'static str) -> OpSpec {
    OpSpec { name, results: RES, format: "attr-dict `:` type($res)", traits: Traits::PURE, ..OpSpec::EMPTY }
}

pub(super) const SPECS: &[OpSpec] = &[
    overflow_op("llvm.add"),
    overflow_op("llvm.sub"),
    overflow_op("llvm.mul"),
    overflow_op("llvm.shl"),
    exact_op("llvm.udiv"),
    exact_op("llvm.sdiv"),
    exact_op("llvm.lshr"),
    exact_op("llvm.ashr"),
    plain_binary("llvm.urem"),
    plain_binary("llvm.srem"),
    plain_binary("llvm.and"),
    plain_binary("llvm.xor"),
    OpSpec {
        name: "llvm.or",
        operands: BINARY,
        attrs: &[opt_attr("isDisjoint", AttrKind::Unit)],
        results: RES_LIKE_LHS,
        format: "(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    float_binary("llvm.fadd"),
    float_binary("llvm.fsub"),
    float_binary("llvm.fmul"),
    float_binary("llvm.fdiv"),
    float_binary("llvm.frem"),
    OpSpec {
        name: "llvm.fneg",
        operands: &[one("operand").like("res")],
        attrs: FASTMATH_ATTRS,
        results: RES,
        format: "$operand attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.freeze",
        operands: &[one("val")],
        results: &[one("res").like("val")],
        format: "$val attr-dict `:` type($val)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    cast("llvm.bitcast"),
    cast("llvm.zext"),
    cast("llvm.sext"),
    OpSpec {
        name: "llvm.trunc",
        operands: ARG,
        attrs: OVERFLOW_ATTRS,
        results: RES,
        format: "$arg `` custom<OverflowFlags>($overflowFlags) attr-dict `:` type($arg) `to` type($res)",
        customs: &[OVERFLOW_FLAGS],
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    cast("llvm.sitofp"),
    cast("llvm.uitofp"),
    cast("llvm.fptosi"),
    cast("llvm.fptoui"),
    cast("llvm.fpext"),
    cast("llvm.fptrunc"),
    cast("llvm.addrspacecast"),
    nullary("llvm.mlir.undef"),
    nullary("llvm.mlir.zero"),
    nullary("llvm.mlir.poison"),
    OpSpec {
        name: "llvm.mlir.constant",
        attrs: &[attr("value", AttrKind::Any)],
        results: RES,
        format: "`(` $value `)` attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.mlir.addressof",
        attrs: &[attr("global_name", AttrKind::SymbolRef)],
        results: RES,
        format: "$global_name attr-dict `:` type($res)",
        traits: Traits::PURE,
        verify: Some(super::calls::verify_addressof),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.select",
        operands: &[one("condition"), one("trueValue").like("res"), one("falseValue").like("res")],
        attrs: FASTMATH_ATTRS,
        results: RES,
        format: "$condition `,` $trueValue `,` $falseValue attr-dict `:` type($condition) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "llvm.extractelement",
        operands: &[one("vector"), one("position")],
        results: RES,
        format: "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)",
        infer: Some(vector_element),
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec { name: "llvm.unreachable", format: "attr-dict", traits: Traits::TERMINATOR, ..OpSpec::EMPTY },
    OpSpec {
        name: "llvm.return",
        operands: &[var("arg")],
        format: "attr-dict ($arg^ `:` type($arg))?",
        traits: Traits::PURE.with(Traits::TERMINATOR).with(Traits::RETURN_LIKE),
        ..OpSpec::EMPTY
    },
];

fn vector_element(ir: &mut Ir, st: &FormatState) -> Result<Vec<Type>, String> {
    match st.operand_types.first().and_then(|t| t.first()).map(|t| ir.type_data(*t)) {
        Some(TypeData::Vector { elem, .. }) => Ok(vec![*elem]),
        _ => Err("expected LLVM dialect-compatible vector type".into()),
    }
}

// ----- comparisons: `llvm.icmp "slt" %a, %b : i32` -----

/// `llvm.icmp` shares arith's integer predicates; `llvm.fcmp` spells the
/// constant ones `_false`/`_true`.
const ICMP: &[&str] = crate::arith::CMPI;
const FCMP: &[&str] = &[
    "_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "_true",
];

fn predicates(name: &str) -> &'static [&'static str] {
    if name == "llvm.icmp" { ICMP } else { FCMP }
}

fn parse_cmp(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    let pos = p.pos();
    let text = String::from_utf8_lossy(&p.parse_string("predicate")?).into_owned();
    let Some(i) = predicates(&name).iter().position(|n| *n == text) else {
        return p.error_at(pos, format!("'{text}' is an incorrect value of the 'predicate' attribute"));
    };
    let lhs = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let rhs = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    for u in [&lhs, &rhs] {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    let t64 = p.ir.int_type(64);
    let a = p.ir.int_attr(i as i128, t64);
    push_attr(p, r, "predicate", a);
    // An i1 result, shaped as the operands when they are vectors.
    let i1 = p.ir.int_type(1);
    let res = match p.ir.type_data(t).clone() {
        TypeData::Vector { shape, scalable, .. } => {
            p.ir.ty(TypeData::Vector { shape, scalable, elem: i1, encoding: None })
        }
        _ => i1,
    };
    r.result_types.push(res);
    Ok(())
}

fn print_cmp(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let i = ir.get_attr(op, "predicate").and_then(|a| ir.as_int(a)).unwrap_or(0) as usize;
    let name = predicates(ir.op_name(op)).get(i).copied().unwrap_or("?");
    p.push(&format!(" \"{name}\" "));
    p.print_values(ir.operands(op));
    super::print_attrs_without_defaults(p, op, &["predicate"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

// ----- aggregates: `llvm.extractvalue %s[0, 1] : !llvm.struct<(...)> ` -----

/// The type at `position` inside an LLVM struct or array type (written as
/// text: `struct<(i32, f32)>`, `array<4 x i8>`), by re-reading the member's
/// text as a type.
fn member_type(p: &mut Parser<'_>, container: Type, position: &[i64]) -> Option<Type> {
    let mut text = crate::util::type_str(p.ir, container);
    for &i in position {
        text = nth_member(&text, i)?;
    }
    p.parse_type_text(&text).ok()
}

/// Member `i` of an LLVM aggregate type's text, with its `!llvm.` prefix
/// restored for nested LLVM types.
fn nth_member(text: &str, i: i64) -> Option<String> {
    let body = text.strip_prefix("!llvm.")?;
    let members: Vec<String> = if let Some(inner) = body.strip_prefix("struct<") {
        let inner = inner.strip_suffix('>')?.trim();
        let inner = inner.strip_prefix("packed ").unwrap_or(inner).trim();
        let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
        super::split_top_level(inner)
    } else if let Some(inner) = body.strip_prefix("array<") {
        let (_, elem) = inner.strip_suffix('>')?.split_once(" x ")?;
        vec![elem.trim().to_string(); usize::try_from(i).ok()? + 1]
    } else {
        return None;
    };
    members.get(usize::try_from(i).ok()?).map(|m| super::qualify(m))
}

fn parse_position(p: &mut Parser<'_>) -> PResult<Vec<i64>> {
    let mut v = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        v.push(p.parse_integer("position")? as i64);
        Ok(())
    })?;
    Ok(v)
}

fn position_attr(p: &mut Parser<'_>, r: &mut OpParseResult, v: &[i64]) {
    let a = crate::util::i64_array_attr(p.ir, v);
    push_attr(p, r, "position", a);
}

fn parse_extractvalue(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let pos_v = parse_position(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(res) = member_type(p, t, &pos_v) else {
        return p.error_at(tpos, "invalid position for the container type");
    };
    let v = p.resolve_operand(&c, t)?;
    r.operands.push(v);
    position_attr(p, r, &pos_v);
    r.result_types.push(res);
    Ok(())
}

fn parse_insertvalue(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let value = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let c = p.parse_operand()?;
    let pos_v = parse_position(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(member) = member_type(p, t, &pos_v) else {
        return p.error_at(tpos, "invalid position for the container type");
    };
    let cv = p.resolve_operand(&c, t)?;
    let vv = p.resolve_operand(&value, member)?;
    r.operands.extend([cv, vv]);
    position_attr(p, r, &pos_v);
    r.result_types.push(t);
    Ok(())
}

/// `[0, 1] {attrs} : T ` (MLIR leaves a space after the container type,
/// where a custom directive prints nothing).
fn print_position_tail(p: &mut Printer<'_>, op: OpId, container: hivm_ir::Value) {
    let pos: Vec<String> = crate::util::i64_array(p.ir, op, "position").iter().map(|x| x.to_string()).collect();
    p.push(&format!("[{}]", pos.join(", ")));
    p.print_optional_attr_dict(op, &["position"]);
    p.push(" : ");
    p.print_type(p.ir.value_type(container));
    p.push(" ");
}

fn print_extractvalue(p: &mut Printer<'_>, op: OpId) {
    let c = p.ir.operand(op, 0);
    p.push(" ");
    p.print_value(c);
    print_position_tail(p, op, c);
}

fn print_insertvalue(p: &mut Printer<'_>, op: OpId) {
    let (c, v) = (p.ir.operand(op, 0), p.ir.operand(op, 1));
    p.push(" ");
    p.print_value(v);
    p.push(", ");
    p.print_value(c);
    print_position_tail(p, op, c);
}

// ----- insertelement: `%v2 = llvm.insertelement %x, %v[%i : i32] : T` -----

fn parse_insertelement(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let value = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let vector = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let position = p.parse_operand()?;
    let pt = p.parse_colon_type()?;
    p.expect(Tok::RSquare, "']'")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    let TypeData::Vector { elem, .. } = p.ir.type_data(t).clone() else {
        return p.error_at(tpos, "expected LLVM dialect-compatible vector type");
    };
    let vv = p.resolve_operand(&vector, t)?;
    let xv = p.resolve_operand(&value, elem)?;
    let iv = p.resolve_operand(&position, pt)?;
    r.operands.extend([vv, xv, iv]);
    r.result_types.push(t);
    Ok(())
}

fn print_insertelement(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.push(" ");
    p.print_value(ops[1]);
    p.push(", ");
    p.print_value(ops[0]);
    p.push("[");
    p.print_value(ops[2]);
    p.push(" : ");
    p.print_type(ir.value_type(ops[2]));
    p.push("]");
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ops[0]));
}

// ----- shufflevector: `%r = llvm.shufflevector %a, %b [0, 3, -1] : vector<4xf32>` -----

/// The result has one element per mask entry, and is scalable when the
/// operands are.
fn parse_shufflevector(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let v1 = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let v2 = p.parse_operand()?;
    let mask = hivm_ir::opspec::parse_attr(p, AttrKind::I32Array)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    let TypeData::Vector { scalable, elem, .. } = p.ir.type_data(t).clone() else {
        return p.error_at(tpos, "expected an LLVM compatible vector type");
    };
    let n = crate::util::i64_array_of(p.ir, mask).len() as i64;
    let res = p.ir.ty(TypeData::Vector {
        shape: vec![n],
        scalable: vec![scalable.first() == Some(&true)],
        elem,
        encoding: None,
    });
    for u in [&v1, &v2] {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    push_attr(p, r, "mask", mask);
    r.result_types.push(res);
    Ok(())
}

fn print_shufflevector(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.push(" ");
    if let Some(m) = ir.get_attr(op, "mask") {
        hivm_ir::opspec::print_attr(p, AttrKind::I32Array, m);
    }
    p.print_optional_attr_dict(op, &["mask"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    // The generated printer's space before the (empty) result-type directive.
    p.push(" ");
}

fn verify_shufflevector(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(mask) = ir.get_attr(op, "mask") else { return Err("requires attribute 'mask'".into()) };
    if !matches!(ir.attr_data(mask), hivm_ir::AttrData::DenseArray { elem, .. } if ir.type_data(*elem).is_signless_int(32))
    {
        return Err("attribute 'mask' failed to satisfy constraint: i32 dense array attribute".into());
    }
    let (t1, t2) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let TypeData::Vector { scalable, elem, .. } = ir.type_data(t1) else {
        return Err(format!(
            "operand #0 must be LLVM dialect-compatible vector type, but got '{}'",
            crate::util::type_str(ir, t1)
        )
        .into());
    };
    if t2 != t1 {
        return Err("failed to verify that all of {v1, v2} have same type".into());
    }
    let mask = crate::util::i64_array_of(ir, mask);
    let want = TypeData::Vector {
        shape: vec![mask.len() as i64],
        scalable: vec![scalable.first() == Some(&true)],
        elem: *elem,
        encoding: None,
    };
    if *ir.type_data(ir.value_type(ir.result(op, 0))) != want {
        return Err("result type must have one element per mask entry, of the operands' element type".into());
    }
    if scalable.first() == Some(&true) && mask.iter().any(|v| *v != 0) {
        return Err("expected a splat operation for scalable vectors".into());
    }
    Ok(())
}

fn verify_aggregate(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if crate::util::i64_array(ir, op, "position").iter().any(|i| *i < 0) {
        return Err("expected non-negative positions".into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut d: Vec<OpDef> = SPECS.iter().map(|s| s.def()).collect();
    for name in ["llvm.icmp", "llvm.fcmp"] {
        let mut def = OpDef::new(name)
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .assembly(parse_cmp, print_cmp);
        if name == "llvm.fcmp" {
            def = def.inherent(&["predicate", "fastmathFlags"]).defaults(&["fastmathFlags"], super::fastmath_default);
        } else {
            def = def.inherent(&["predicate"]);
        }
        d.push(def);
    }
    d.push(
        OpDef::new("llvm.extractvalue")
            .arity((1, Some(1)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["position"])
            .assembly(parse_extractvalue, print_extractvalue)
            .verifier(verify_aggregate),
    );
    d.push(
        OpDef::new("llvm.insertvalue")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["position"])
            .assembly(parse_insertvalue, print_insertvalue)
            .verifier(verify_aggregate),
    );
    d.push(
        OpDef::new("llvm.shufflevector")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["mask"])
            .assembly(parse_shufflevector, print_shufflevector)
            .verifier(verify_shufflevector),
    );
    d.push(
        OpDef::new("llvm.insertelement")
            .arity((3, Some(3)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .assembly(parse_insertelement, print_insertelement),
    );
    d
}
