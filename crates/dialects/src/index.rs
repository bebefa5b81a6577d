//! MLIR's `index` dialect: arithmetic on `index` values whose width the
//! target decides (`%d = index.sub %a, %b`, `%c = index.cmp slt(%a, %b)`).

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, ValueDef, attr, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Dialect, Ir, OpDef, OpId, Traits};

const INDEX_RESULT: &[ValueDef] = &[one("result").of(Fixed::Index)];

/// `$lhs, $rhs attr-dict`: both operands and the result are `index`.
const fn binary(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("lhs").of(Fixed::Index), one("rhs").of(Fixed::Index)];
    OpSpec {
        name,
        operands: OPERANDS,
        results: INDEX_RESULT,
        format: "$lhs `,` $rhs attr-dict",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const BINARY: &[&str] = &[
    "index.add",
    "index.sub",
    "index.mul",
    "index.divs",
    "index.divu",
    "index.ceildivs",
    "index.ceildivu",
    "index.floordivs",
    "index.rems",
    "index.remu",
    "index.maxs",
    "index.maxu",
    "index.mins",
    "index.minu",
    "index.shl",
    "index.shrs",
    "index.shru",
    "index.and",
    "index.or",
    "index.xor",
];

const CONSTANT: OpSpec = OpSpec {
    name: "index.constant",
    attrs: &[attr("value", AttrKind::IndexInt)],
    results: INDEX_RESULT,
    format: "attr-dict $value",
    traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
    ..OpSpec::EMPTY
};

const BOOL_CONSTANT: OpSpec = OpSpec {
    name: "index.bool.constant",
    attrs: &[attr("value", AttrKind::Bool)],
    results: &[one("result").of(Fixed::Int(1))],
    format: "attr-dict $value",
    traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
    ..OpSpec::EMPTY
};

/// `index.casts`/`index.castu`: between `index` and an integer type.
const fn cast(name: &'static str) -> OpSpec {
    const INPUT: &[ValueDef] = &[one("input")];
    const OUTPUT: &[ValueDef] = &[one("output")];
    OpSpec {
        name,
        operands: INPUT,
        results: OUTPUT,
        format: "$input attr-dict `:` type($input) `to` type($output)",
        traits: Traits::PURE,
        verify: Some(verify_cast),
        ..OpSpec::EMPTY
    }
}

fn verify_cast(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let (from, to) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let index = |t| matches!(ir.type_data(t), hivm_ir::TypeData::Index);
    let int = |t| matches!(ir.type_data(t), hivm_ir::TypeData::Integer { .. });
    let ts = |t| hivm_ir::printer::type_to_string(ir, t);
    for (what, t) in [("operand", from), ("result", to)] {
        if !index(t) && !int(t) {
            return Err(format!("{what} #0 must be integer or index, but got '{}'", ts(t)).into());
        }
    }
    if (index(from) && int(to)) || (int(from) && index(to)) {
        return Ok(());
    }
    Err(format!("operand type '{}' and result type '{}' are cast incompatible", ts(from), ts(to)).into())
}

const SIZEOF: OpSpec =
    OpSpec { name: "index.sizeof", results: INDEX_RESULT, format: "attr-dict", traits: Traits::PURE, ..OpSpec::EMPTY };

/// The comparison predicates, as `#index<cmp_predicate ..>` spells them.
const PREDICATES: &[&str] = &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];

fn predicate_expected() -> String {
    format!("expected ::mlir::index::IndexCmpPredicate to be one of: {}", PREDICATES.join(", "))
}

fn predicate_attr(ir: &mut Ir, pred: &str) -> hivm_ir::Attribute {
    crate::util::opaque_attr(ir, "index", &format!("<cmp_predicate {pred}>"))
}

fn predicate_of(ir: &Ir, op: OpId) -> Option<&str> {
    match ir.attr_data(ir.get_attr(op, "pred")?) {
        AttrData::Opaque { body, .. } => body.strip_prefix("<cmp_predicate ")?.strip_suffix('>'),
        _ => None,
    }
}

/// `index.cmp slt(%a, %b) attr-dict`.
fn parse_cmp(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let pred = p.parse_keyword("predicate")?.to_string();
    if !PREDICATES.contains(&pred.as_str()) {
        return p.op_error_at(pos, predicate_expected());
    }
    p.expect(Tok::LParen, "'('")?;
    let ops = p.parse_operand_list()?;
    p.expect(Tok::RParen, "')'")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let index = p.ir.index_type();
    crate::util::resolve_all(p, &ops, index, r)?;
    let a = predicate_attr(p.ir, &pred);
    let k = p.ir.sym("pred");
    r.attrs.push((k, a));
    let i1 = p.ir.int_type(1);
    r.result_types.push(i1);
    Ok(())
}

fn print_cmp(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.push(predicate_of(ir, op).unwrap_or("eq"));
    p.push("(");
    p.print_values(ir.operands(op));
    p.push(")");
    p.print_optional_attr_dict(op, &["pred"]);
}

fn verify_cmp(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if ir.operands(op).len() != 2 || ir.results(op).len() != 1 {
        return Err("expected 2 index operands and one i1 result".into());
    }
    let index = |v| matches!(ir.type_data(ir.value_type(v)), hivm_ir::TypeData::Index);
    if !ir.operands(op).iter().all(|v| index(*v)) {
        return Err("operands must be index".into());
    }
    if !ir.type_data(ir.value_type(ir.result(op, 0))).is_signless_int(1) {
        return Err("result #0 must be 1-bit signless integer".into());
    }
    if predicate_of(ir, op).is_none() {
        return Err("requires attribute 'pred'".into());
    }
    Ok(())
}

/// `%idx42 = index.constant 42`, `%true = index.bool.constant true`.
fn constant_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    let r = ir.result(op, 0);
    match ir.get_attr(op, "value").map(|a| ir.attr_data(a)) {
        Some(AttrData::Integer { value, ty }) if matches!(ir.type_data(*ty), hivm_ir::TypeData::Index) => {
            set(r, format!("idx{value}"))
        }
        Some(AttrData::Integer { value, .. }) => set(r, if *value != 0 { "true" } else { "false" }.to_string()),
        _ => {}
    }
}

fn check_attr(body: &str) -> Result<String, String> {
    match body.strip_prefix("<cmp_predicate ").and_then(|b| b.strip_suffix('>')) {
        Some(p) if PREDICATES.contains(&p.trim()) => Ok(format!("<cmp_predicate {}>", p.trim())),
        Some(_) => Err(predicate_expected()),
        None => Err(format!("unknown attribute `{}` in dialect `index`", body.trim_matches(['<', '>']))),
    }
}

pub fn dialect() -> Dialect {
    let mut ops: Vec<OpDef> = BINARY.iter().map(|n| binary(n).def()).collect();
    ops.push(CONSTANT.def().names(constant_names));
    ops.push(BOOL_CONSTANT.def().names(constant_names));
    ops.extend([cast("index.casts"), cast("index.castu"), SIZEOF].map(OpSpec::def));
    ops.push(
        OpDef::new("index.cmp")
            .arity((2, Some(2)), (1, Some(1)), 0)
            .traits(Traits::PURE)
            .inherent(&["pred"])
            .assembly(parse_cmp, print_cmp)
            .verifier(verify_cmp),
    );
    let mut d = Dialect::new("index", ops);
    d.check_attr = Some(check_attr);
    d
}
