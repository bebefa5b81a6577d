//! `scf.forall` (a parallel loop nest over a box of indices, with tensors
//! shared between iterations) and its terminator `scf.forall.in_parallel`,
//! with mlir-opt's syntax:
//! `scf.forall (%i, %j) in (2, %n) shared_outs(%o = %t) -> (T) { ... }`, or
//! `= (lbs) to (ubs) step (steps)` when bounds are not 0 and steps not 1.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, OperationState, Traits};

use crate::util::{
    i64_array, i64_array_attr, parse_dynamic_index_list_in, print_dynamic_index_list_in, push_attr, resolve_all,
    segment, segment_attr,
};

const IN_PARALLEL: &str = "scf.forall.in_parallel";
const BOUNDS: [&str; 3] = ["staticLowerBound", "staticUpperBound", "staticStep"];

fn parse_forall(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut ivs = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "induction variables", &mut |p| {
        ivs.push(p.parse_operand()?);
        Ok(())
    })?;
    let parens = (Tok::LParen, Tok::RParen);
    let (lists, dyns) = if p.parse_optional_keyword("in") {
        let (ubs, dub) = parse_dynamic_index_list_in(p, parens)?;
        let n = ubs.len();
        ([vec![0; n], ubs, vec![1; n]], [Vec::new(), dub, Vec::new()])
    } else {
        p.expect(Tok::Equal, "'='")?;
        let (lbs, dlb) = parse_dynamic_index_list_in(p, parens)?;
        p.expect_keyword("to")?;
        let (ubs, dub) = parse_dynamic_index_list_in(p, parens)?;
        p.expect_keyword("step")?;
        let (steps, dst) = parse_dynamic_index_list_in(p, parens)?;
        ([lbs, ubs, steps], [dlb, dub, dst])
    };
    if lists.iter().any(|l| l.len() != ivs.len()) {
        return p.error("expected as many bounds and steps as induction variables");
    }
    let (mut out_args, mut inits) = (Vec::new(), Vec::new());
    if p.parse_optional_keyword("shared_outs") {
        p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "shared outputs", &mut |p| {
            out_args.push(p.parse_operand()?);
            p.expect(Tok::Equal, "'='")?;
            inits.push(p.parse_operand()?);
            Ok(())
        })?;
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if r.result_types.len() != inits.len() {
        return p.error("expected one result type per shared output");
    }
    let idx = p.ir.index_type();
    let mut args: Vec<RegionArg> = ivs.into_iter().map(|name| RegionArg { name, ty: idx, loc: None }).collect();
    args.extend(out_args.into_iter().zip(&r.result_types).map(|(name, ty)| RegionArg { name, ty: *ty, loc: None }));
    let args = crate::util::locate_args(p, args);
    let region = p.parse_region(&args, false)?;
    ensure_in_parallel(p.ir, region, r.loc);
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    for d in &dyns {
        resolve_all(p, d, idx, r)?;
    }
    let types = r.result_types.clone();
    let vals = p.resolve_operands(&inits, &types, r.pos)?;
    r.operands.extend(vals);
    let seg = segment_attr(p.ir, &[dyns[0].len(), dyns[1].len(), dyns[2].len(), inits.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    for (name, l) in BOUNDS.iter().zip(&lists) {
        let a = i64_array_attr(p.ir, l);
        push_attr(p, r, name, a);
    }
    Ok(())
}

/// The implied terminator: an `in_parallel` with one empty block.
fn ensure_in_parallel(ir: &mut Ir, region: hivm_ir::RegionId, loc: hivm_ir::Attribute) {
    let Some(&block) = ir.region_blocks(region).first() else { return };
    if ir.terminator(block).is_some_and(|t| ir.op_name(t) == IN_PARALLEL) {
        return;
    }
    let inner = ir.new_region();
    let b = ir.create_block();
    ir.push_block(inner, b);
    let sym = ir.sym(IN_PARALLEL);
    let mut st = OperationState::new(sym, loc);
    st.regions = vec![inner];
    let op = ir.create_op(st);
    ir.append_op(block, op);
}

fn print_forall(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let [lbs, ubs, steps] = BOUNDS.map(|k| i64_array(ir, op, k));
    let Some(&region) = ir.regions(op).first() else { return };
    let Some(&block) = ir.region_blocks(region).first() else { return };
    let args = ir.block_args(block);
    let n = lbs.len().min(args.len());
    p.push(" (");
    p.print_values(&args[..n]);
    let normalized = lbs.iter().all(|l| *l == 0) && steps.iter().all(|s| *s == 1);
    if normalized {
        p.push(") in ");
        print_dynamic_index_list_in(p, &ubs, segment(ir, op, 1), ("(", ")"));
    } else {
        p.push(") = ");
        print_dynamic_index_list_in(p, &lbs, segment(ir, op, 0), ("(", ")"));
        p.push(" to ");
        print_dynamic_index_list_in(p, &ubs, segment(ir, op, 1), ("(", ")"));
        p.push(" step ");
        print_dynamic_index_list_in(p, &steps, segment(ir, op, 2), ("(", ")"));
    }
    let outs = segment(ir, op, 3);
    if !outs.is_empty() {
        p.push(" shared_outs");
        super::print_init_list(p, &args[n..], outs);
    }
    p.push(" ");
    let results = ir.results(op);
    if !results.is_empty() {
        p.push("-> (");
        p.print_value_types(results);
        p.push(") ");
    }
    p.print_region(region, false, !results.is_empty());
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "staticLowerBound", "staticUpperBound", "staticStep"]);
}

fn verify_forall(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 4)?;
    let [lbs, ubs, steps] = BOUNDS.map(|k| i64_array(ir, op, k));
    let rank = lbs.len();
    if ubs.len() != rank || steps.len() != rank {
        return Err("expected the same number of lower bounds, upper bounds and steps".into());
    }
    for (i, l) in [&lbs, &ubs, &steps].into_iter().enumerate() {
        let dynamic = l.iter().filter(|x| **x == hivm_ir::types::DYNAMIC).count();
        if dynamic != segment(ir, op, i).len() {
            return Err("expected one dynamic value per '?' bound".into());
        }
    }
    let outs = segment(ir, op, 3);
    if outs.len() != ir.results(op).len() {
        return Err("expected one result per shared output".into());
    }
    let Some(&region) = ir.regions(op).first() else { return Err("requires one region".into()) };
    let Some(&block) = ir.region_blocks(region).first() else { return Err("expected a body block".into()) };
    if ir.block_args(block).len() != rank + outs.len() {
        return Err(format!("region expects {} arguments", rank + outs.len()).into());
    }
    Ok(())
}

fn parse_in_parallel(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let region = p.parse_region(&[], false)?;
    if p.ir.region_blocks(region).is_empty() {
        let b = p.ir.create_block();
        p.ir.push_block(region, b);
    }
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_in_parallel(p: &mut Printer<'_>, op: OpId) {
    p.push(" ");
    if let Some(&r) = p.ir.regions(op).first() {
        p.print_region(r, false, true);
    }
    p.print_optional_attr_dict(op, &[]);
}

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("scf.forall")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["mapping", "operandSegmentSizes", "staticLowerBound", "staticStep", "staticUpperBound"])
            .assembly(parse_forall, print_forall)
            .verifier(verify_forall),
        OpDef::new(IN_PARALLEL)
            .traits(Traits::TERMINATOR | Traits::NO_TERMINATOR | Traits::SINGLE_BLOCK)
            .assembly(parse_in_parallel, print_in_parallel),
    ]
}
