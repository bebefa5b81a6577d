//! `scf.parallel` (a parallel loop nest over SSA bounds, with reductions)
//! and its terminator `scf.reduce` (one combining region per reduced value,
//! each ending in `scf.reduce.return`), with mlir-opt's syntax.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, OperationState, Traits};

use crate::util::{push_attr, segment, segment_attr};

const REDUCE: &str = "scf.reduce";

fn parse_paren_operands(p: &mut Parser<'_>) -> PResult<Vec<UnresolvedOperand>> {
    let mut v = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "operand list", &mut |p| {
        v.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok(v)
}

fn parse_parallel(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ivs = parse_paren_operands(p)?;
    p.expect(Tok::Equal, "'='")?;
    let lbs = parse_paren_operands(p)?;
    p.expect_keyword("to")?;
    let ubs = parse_paren_operands(p)?;
    p.expect_keyword("step")?;
    let steps = parse_paren_operands(p)?;
    if [&lbs, &ubs, &steps].iter().any(|l| l.len() != ivs.len()) {
        return p.error("expected as many bounds and steps as induction variables");
    }
    let inits = if p.parse_optional_keyword("init") { parse_paren_operands(p)? } else { Vec::new() };
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if r.result_types.len() != inits.len() {
        return p.error("expects the same number of init values and result types");
    }
    let idx = p.ir.index_type();
    let args = ivs.into_iter().map(|name| RegionArg { name, ty: idx, loc: None }).collect();
    let args = crate::util::locate_args(p, args);
    let region = p.parse_region(&args, false)?;
    // The terminator with nothing to reduce is implied.
    if let Some(&block) = p.ir.region_blocks(region).first()
        && p.ir.terminator(block).is_none_or(|t| p.ir.op_name(t) != REDUCE)
    {
        let sym = p.ir.sym(REDUCE);
        let st = OperationState::new(sym, r.loc);
        let op = p.ir.create_op(st);
        p.ir.append_op(block, op);
    }
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    for list in [&lbs, &ubs, &steps] {
        for u in list {
            let v = p.resolve_operand(u, idx)?;
            r.operands.push(v);
        }
    }
    let types = r.result_types.clone();
    let vals = p.resolve_operands(&inits, &types, r.pos)?;
    r.operands.extend(vals);
    let seg = segment_attr(p.ir, &[lbs.len(), ubs.len(), steps.len(), inits.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    Ok(())
}

fn print_parallel(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(&region) = ir.regions(op).first() else { return };
    let Some(&block) = ir.region_blocks(region).first() else { return };
    p.push(" (");
    p.print_values(ir.block_args(block));
    for (i, kw) in [") = (", ") to (", ") step ("].into_iter().enumerate() {
        p.push(kw);
        p.print_values(segment(ir, op, i));
    }
    p.push(")");
    let inits = segment(ir, op, 3);
    if !inits.is_empty() {
        p.push(" init (");
        p.print_values(inits);
        p.push(")");
    }
    let results = ir.results(op);
    if !results.is_empty() {
        p.push(" -> ");
        if results.len() == 1 {
            p.print_type(ir.value_type(results[0]));
        } else {
            p.push("(");
            p.print_value_types(results);
            p.push(")");
        }
    }
    p.push(" ");
    p.print_region(region, false, true);
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
}

fn verify_parallel(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 4)?;
    let n = segment(ir, op, 0).len();
    if n == 0 || segment(ir, op, 1).len() != n || segment(ir, op, 2).len() != n {
        return Err("needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    let inits = segment(ir, op, 3);
    if inits.len() != ir.results(op).len() {
        return Err("expects number of results to match the number of init values".into());
    }
    let Some(&region) = ir.regions(op).first() else { return Err("requires one region".into()) };
    let Some(&block) = ir.region_blocks(region).first() else { return Err("expected a body block".into()) };
    if ir.block_args(block).len() != n {
        return Err("expects the same number of induction variables: ".to_string().into());
    }
    if let Some(t) = ir.terminator(block)
        && ir.op_name(t) == REDUCE
        && ir.operands(t).len() != inits.len()
    {
        return Err(format!(
            "expects number of results: {} to be the same as number of reductions: {}",
            inits.len(),
            ir.operands(t).len()
        )
        .into());
    }
    Ok(())
}

fn parse_reduce(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.consume_if(Tok::LParen) {
        let ops = p.parse_operand_list()?;
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        p.expect(Tok::RParen, "')'")?;
        r.operands = p.resolve_operands(&ops, &tys, pos)?;
    }
    while p.is(Tok::LBrace) {
        let region = p.parse_region(&[], false)?;
        r.regions.push(region);
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    p.parse_optional_attr_dict(&mut r.attrs)
}

fn print_reduce(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if !ir.operands(op).is_empty() {
        p.push("(");
        p.print_values(ir.operands(op));
        p.push(" : ");
        p.print_value_types(ir.operands(op));
        p.push(")");
    }
    // The format's space before the region list stays when it is empty.
    p.push(" ");
    for (i, &r) in ir.regions(op).iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        p.print_region(r, true, true);
    }
    p.print_optional_attr_dict(op, &[]);
}

fn verify_reduce(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.regions(op).len() != ir.operands(op).len() {
        return Err(format!(
            "expects number of reduction regions: {} to be the same as number of reduction operands: {}",
            ir.regions(op).len(),
            ir.operands(op).len()
        )
        .into());
    }
    Ok(())
}

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("scf.parallel")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["operandSegmentSizes"])
            .assembly(parse_parallel, print_parallel)
            .verifier(verify_parallel),
        OpDef::new(REDUCE).traits(Traits::TERMINATOR).assembly(parse_reduce, print_reduce).verifier(verify_reduce),
        OpDef::new("scf.reduce.return")
            .traits(Traits::TERMINATOR | Traits::PURE)
            .assembly(crate::util::parse_unary_typed, crate::util::print_unary_typed),
    ]
}
