//! The `cf` dialect: unstructured branches.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{BlockId, Dialect, Ir, OpDef, OpId, Traits, Value};

use crate::util::{segment, segment_attr, type_str};

/// `^bb(%a, %b : T1, T2)`; returns the block and resolved operands.
pub fn parse_successor_with_operands(p: &mut Parser<'_>) -> PResult<(BlockId, Vec<Value>)> {
    let b = p.parse_successor()?;
    let mut vals = Vec::new();
    if p.consume_if(Tok::LParen) {
        let ops = p.parse_operand_list()?;
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        vals = p.resolve_operands(&ops, &tys, pos)?;
        p.expect(Tok::RParen, "')'")?;
    }
    Ok((b, vals))
}

fn parse_br(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (b, vals) = parse_successor_with_operands(p)?;
    r.successors.push(b);
    r.operands = vals;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_br(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_successor_and_operands(ir.successors(op)[0], ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
}

/// `cf.assert %cond, "message"`.
fn parse_assert(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    r.operands.push(cv);
    p.expect(Tok::Comma, "','")?;
    let msg = p.parse_string("message")?;
    let a = p.ir.attr(hivm_ir::AttrData::String { value: msg, ty: None });
    let k = p.ir.sym("msg");
    r.attrs.push((k, a));
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_assert(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(", ");
    if let Some(a) = ir.get_attr(op, "msg") {
        p.print_attr(a, hivm_ir::printer::Elide::Never);
    }
    p.print_optional_attr_dict(op, &["msg"]);
}

fn parse_cond_br(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    if p.parse_optional_keyword("weights") {
        p.expect(Tok::LParen, "'('")?;
        let mut weights = Vec::new();
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "branch weights", &mut |p| {
            weights.push(crate::util::parse_int_field(p, "cf.cond_br", "branch weight", 32)?);
            Ok(())
        })?;
        p.expect(Tok::RParen, "')'")?;
        let elem = p.ir.int_type(32);
        let w = p.ir.attr(hivm_ir::AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(weights) });
        let k = p.ir.sym("branch_weights");
        r.attrs.push((k, w));
    }
    p.expect(Tok::Comma, "','")?;
    let (t, tv) = parse_successor_with_operands(p)?;
    p.expect(Tok::Comma, "','")?;
    let (f, fv) = parse_successor_with_operands(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let seg = segment_attr(p.ir, &[1, tv.len(), fv.len()]);
    let k = p.ir.sym("operandSegmentSizes");
    r.attrs.push((k, seg));
    r.operands.push(cv);
    r.operands.extend(tv);
    r.operands.extend(fv);
    r.successors = vec![t, f];
    Ok(())
}

fn print_cond_br(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let weights = match ir.get_attr(op, "branch_weights").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.clone()),
        _ => None,
    };
    if let Some(w) = &weights {
        let text: Vec<String> = w.iter().map(|x| x.to_string()).collect();
        p.push(&format!(" weights([{}])", text.join(", ")));
    }
    p.push(", ");
    p.print_successor_and_operands(ir.successors(op)[0], segment(ir, op, 1));
    p.push(", ");
    p.print_successor_and_operands(ir.successors(op)[1], segment(ir, op, 2));
    let elided: &[&str] =
        if weights.is_some() { &["operandSegmentSizes", "branch_weights"] } else { &["operandSegmentSizes"] };
    p.print_optional_attr_dict(op, elided);
}

pub fn check_successor_operands(
    ir: &Ir,
    succ: BlockId,
    ops: &[Value],
    index: usize,
) -> Result<(), hivm_ir::dialect::VerifyError> {
    let args = ir.block_args(succ);
    if args.len() != ops.len() {
        return Err(format!(
            "branch has {} operands for successor #{index}, but target block has {}",
            ops.len(),
            args.len()
        )
        .into());
    }
    for (i, (a, v)) in args.iter().zip(ops).enumerate() {
        if ir.value_type(*a) != ir.value_type(*v) {
            return Err(format!(
                "type mismatch for bb argument #{i} of successor #{index}: '{}' vs '{}'",
                type_str(ir, ir.value_type(*v)),
                type_str(ir, ir.value_type(*a))
            )
            .into());
        }
    }
    Ok(())
}

fn verify_br(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(&s) = ir.successors(op).first() else { return Err("requires 1 successor but found 0".into()) };
    check_successor_operands(ir, s, ir.operands(op), 0)
}

fn verify_cond_br(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    crate::util::check_segments(ir, op, 3)?;
    if ir.successors(op).len() != 2 {
        return Err(format!("requires 2 successors but found {}", ir.successors(op).len()).into());
    }
    if let Some(a) = ir.get_attr(op, "branch_weights") {
        match ir.attr_data(a) {
            hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(w), elem }
                if matches!(ir.type_data(*elem), hivm_ir::TypeData::Integer { width: 32, .. }) =>
            {
                if w.len() != 2 {
                    // Upstream's shared weight check reports without the op prefix.
                    return Err(hivm_ir::dialect::VerifyError::plain(format!(
                        "expects number of branch weights to match number of successors: {} vs 2",
                        w.len()
                    )));
                }
            }
            _ => {
                return Err("attribute 'branch_weights' failed to satisfy constraint: i32 dense array attribute".into());
            }
        }
    }
    check_successor_operands(ir, ir.successors(op)[0], segment(ir, op, 1), 0)?;
    check_successor_operands(ir, ir.successors(op)[1], segment(ir, op, 2), 1)
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "cf",
        vec![
            OpDef::new("cf.br")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .assembly(parse_br, print_br)
                .verifier(verify_br),
            OpDef::new("cf.assert").inherent(&["msg"]).assembly(parse_assert, print_assert),
            OpDef::new("cf.cond_br")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .inherent(&["operandSegmentSizes", "branch_weights"])
                .assembly(parse_cond_br, print_cond_br)
                .verifier(verify_cond_br),
        ],
    )
}
