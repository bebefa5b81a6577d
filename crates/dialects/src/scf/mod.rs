//! The `scf` dialect: `for`, `if`, `while`, `yield`, `condition`.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, Type, Value};

use crate::util::type_str;

fn parse_for(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let unsigned = p.parse_optional_keyword("unsigned");
    if unsigned {
        let (k, v) = (p.ir.sym("unsignedCmp"), p.ir.unit_attr());
        r.attrs.push((k, v));
    }
    let iv = p.parse_operand()?;
    p.expect(Tok::Equal, "'='")?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let (iter_args, inits) = parse_iter_args(p, r)?;
    let mut iv_ty = p.ir.index_type();
    if p.consume_if(Tok::Colon) {
        iv_ty = p.parse_type()?;
    }
    for u in [&lb, &ub, &step] {
        let v = p.resolve_operand(u, iv_ty)?;
        r.operands.push(v);
    }
    if inits.len() != r.result_types.len() {
        return p.error("mismatch in number of loop-carried values and defined values");
    }
    for (u, t) in inits.iter().zip(r.result_types.clone()) {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    let mut args = vec![RegionArg { name: iv, ty: iv_ty, loc: None }];
    for (u, t) in iter_args.into_iter().zip(r.result_types.clone()) {
        args.push(RegionArg { name: u, ty: t, loc: None });
    }
    let loc = r.loc;
    let region = p.parse_region_with_terminator(&args, false, Some("scf.yield"), loc)?;
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

/// `iter_args(%a = %init, ...) -> (T, ...)`, if present: the region
/// arguments and their initial values; the types become the op's results.
pub(crate) fn parse_iter_args(
    p: &mut Parser<'_>,
    r: &mut OpParseResult,
) -> PResult<(Vec<hivm_ir::parser::UnresolvedOperand>, Vec<hivm_ir::parser::UnresolvedOperand>)> {
    let (mut args, mut inits) = (Vec::new(), Vec::new());
    if p.parse_optional_keyword("iter_args") {
        p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "iter_args", &mut |p| {
            args.push(p.parse_operand()?);
            p.expect(Tok::Equal, "'='")?;
            inits.push(p.parse_operand()?);
            Ok(())
        })?;
        r.result_types = p.parse_arrow_result_types()?;
    }
    Ok((args, inits))
}

/// `(%arg = %init, ...)`, MLIR's initialisation list of loop state.
pub(crate) fn print_init_list(p: &mut Printer<'_>, args: &[Value], inits: &[Value]) {
    p.push("(");
    for (i, (a, v)) in args.iter().zip(inits).enumerate() {
        if i > 0 {
            p.push(", ");
        }
        p.print_value(*a);
        p.push(" = ");
        p.print_value(*v);
    }
    p.push(")");
}

fn print_for(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let body = ir.regions(op)[0];
    let Some(&entry) = ir.region_blocks(body).first() else { return p.print_generic_op(op) };
    let args = ir.block_args(entry).to_vec();
    let ops = ir.operands(op).to_vec();
    if ir.get_attr(op, "unsignedCmp").is_some() {
        p.push(" unsigned");
    }
    p.push(" ");
    p.print_value(args[0]);
    p.push(" = ");
    p.print_value(ops[0]);
    p.push(" to ");
    p.print_value(ops[1]);
    p.push(" step ");
    p.print_value(ops[2]);
    if ops.len() > 3 {
        p.push(" iter_args");
        print_init_list(p, &args[1..], &ops[3..]);
        p.push(" -> (");
        p.print_value_types(ir.results(op));
        p.push(")");
    }
    let iv_ty = ir.value_type(args[0]);
    if !matches!(ir.type_data(iv_ty), hivm_ir::TypeData::Index) {
        // MLIR prints the type after an empty optional group and its space.
        p.push("  : ");
        p.print_type(iv_ty);
    }
    p.push(" ");
    p.print_region(body, false, ops.len() > 3);
    p.print_optional_attr_dict(op, &["unsignedCmp"]);
}

fn verify_for(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let ops = ir.operands(op);
    if ops.len() < 3 {
        return Err(format!("expected at least 3 operands, but found {}", ops.len()).into());
    }
    let body = ir.regions(op)[0];
    let Some(&entry) = ir.region_blocks(body).first() else {
        return Err("expected body region to have a block".into());
    };
    let args = ir.block_args(entry);
    let n_iter = ops.len() - 3;
    if ir.results(op).len() != n_iter {
        return Err("mismatch in number of loop-carried values and defined values".into());
    }
    if args.len() != n_iter + 1 {
        return Err(format!("expects {} region arguments", n_iter + 1).into());
    }
    if ir.value_type(args[0]) != ir.value_type(ops[0]) {
        return Err("expected induction variable to be same type as bounds and step".into());
    }
    for (i, ((a, init), res)) in args[1..].iter().zip(&ops[3..]).zip(ir.results(op)).enumerate() {
        let (at, it, rt) = (ir.value_type(*a), ir.value_type(*init), ir.value_type(*res));
        if it != rt {
            return Err(format!("types mismatch between {i}th iter operand and defined value").into());
        }
        if at != rt {
            return Err(format!("types mismatch between {i}th iter region arg and defined value").into());
        }
    }
    Ok(())
}

fn verify_yield(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(parent) = ir.parent_op(op) else { return Ok(()) };
    let name = ir.op_name(parent);
    let expected: Vec<Type> = match name {
        "scf.for" | "scf.if" | "scf.execute_region" | "scf.index_switch" => {
            ir.results(parent).iter().map(|v| ir.value_type(*v)).collect()
        }
        "scf.while" => {
            let before = ir.regions(parent)[0];
            let b = ir.region_blocks(before)[0];
            ir.block_args(b).iter().map(|v| ir.value_type(*v)).collect()
        }
        _ => {
            return Err("expects parent op to be one of 'scf.execute_region, scf.for, scf.forall, scf.if, scf.index_switch, scf.while'".into());
        }
    };
    let got: Vec<Type> = ir.operands(op).iter().map(|v| ir.value_type(*v)).collect();
    if got.len() != expected.len() {
        return Err(format!(
            "types mismatch between yield op and its parent: {} vs {}",
            list(ir, &got),
            list(ir, &expected)
        )
        .into());
    }
    if got != expected {
        return Err(format!(
            "types mismatch between yield op and its parent: {} vs {}",
            list(ir, &got),
            list(ir, &expected)
        )
        .into());
    }
    Ok(())
}

fn list(ir: &Ir, ts: &[Type]) -> String {
    ts.iter().map(|t| type_str(ir, *t)).collect::<Vec<_>>().join(", ")
}

fn parse_if(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    r.operands.push(cv);
    if p.is(Tok::Arrow) {
        r.result_types = p.parse_arrow_result_types()?;
    }
    let loc = r.loc;
    let then_r = p.parse_region_with_terminator(&[], false, Some("scf.yield"), loc)?;
    r.regions.push(then_r);
    let else_r = if p.parse_optional_keyword("else") {
        p.parse_region_with_terminator(&[], false, Some("scf.yield"), loc)?
    } else {
        p.ir.new_region()
    };
    r.regions.push(else_r);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_if(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let has_results = !ir.results(op).is_empty();
    if has_results {
        p.push(" -> (");
        p.print_value_types(ir.results(op));
        p.push(")");
    }
    p.push(" ");
    p.print_region(ir.regions(op)[0], false, has_results);
    let else_r = ir.regions(op)[1];
    let else_has_ops = ir.region_blocks(else_r).first().is_some_and(|b| ir.block(*b).first.is_some());
    if !ir.region_blocks(else_r).is_empty() && (else_has_ops || has_results) {
        p.push(" else ");
        p.print_region(else_r, false, has_results);
    }
    p.print_optional_attr_dict(op, &[]);
}

fn verify_if(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if !ir.results(op).is_empty() && ir.region_blocks(ir.regions(op)[1]).is_empty() {
        return Err("must have an else block if defining values".into());
    }
    Ok(())
}

fn parse_while(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut names = Vec::new();
    let mut inits = Vec::new();
    // The initialisation list is optional (a loop without state).
    if p.is(Tok::LParen) {
        p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "while operands", &mut |p| {
            names.push(p.parse_operand()?);
            p.expect(Tok::Equal, "'='")?;
            inits.push(p.parse_operand()?);
            Ok(())
        })?;
    }
    let inputs = crate::util::parse_functional_type_tail(p, r, &inits)?;
    let args: Vec<RegionArg> =
        names.into_iter().zip(&inputs).map(|(n, t)| RegionArg { name: n, ty: *t, loc: None }).collect();
    let before = p.parse_region(&args, false)?;
    p.expect_keyword("do")?;
    let after = p.parse_region(&[], false)?;
    r.regions = vec![before, after];
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    Ok(())
}

fn print_while(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let before = ir.regions(op)[0];
    let Some(&entry) = ir.region_blocks(before).first() else { return p.print_generic_op(op) };
    if !ir.operands(op).is_empty() {
        p.push(" ");
        print_init_list(p, ir.block_args(entry), ir.operands(op));
    }
    p.push(" : ");
    p.print_functional_type(op);
    p.push(" ");
    p.print_region(before, false, true);
    p.push(" do ");
    p.print_region(ir.regions(op)[1], true, true);
    p.print_optional_attr_dict_with_keyword(op, &[]);
}

/// `scf.execute_region [-> types] [no_inline] { ... }`.
fn parse_execute_region(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.is(Tok::Arrow) {
        r.result_types = p.parse_arrow_result_types()?;
    }
    if p.parse_optional_keyword("no_inline") {
        let u = p.ir.attr(hivm_ir::AttrData::Unit);
        let k = p.ir.sym("no_inline");
        r.attrs.push((k, u));
    }
    let body = p.parse_region(&[], false)?;
    r.regions.push(body);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_execute_region(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_arrow_results(op);
    p.push(" ");
    if ir.get_attr(op, "no_inline").is_some() {
        p.push("no_inline ");
    }
    p.print_region(ir.regions(op)[0], false, true);
    p.print_optional_attr_dict(op, &["no_inline"]);
}

fn verify_execute_region(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let r = ir.regions(op)[0];
    let Some(&entry) = ir.region_blocks(r).first() else {
        return Err("region needs to have at least one block".into());
    };
    if !ir.block_args(entry).is_empty() {
        return Err("region cannot have any arguments".into());
    }
    Ok(())
}

/// `scf.index_switch %i [attrs] [-> types] case N {..} ... default {..}`;
/// the default region comes first in the op, last in the text.
fn parse_index_switch(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let i = p.parse_operand()?;
    let it = p.ir.index_type();
    let iv = p.resolve_operand(&i, it)?;
    r.operands.push(iv);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    // `type($results)` of a variadic group: a bare comma-separated list.
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let loc = r.loc;
    let mut cases = Vec::new();
    let mut regions = Vec::new();
    while p.parse_optional_keyword("case") {
        cases.push(crate::util::parse_int_field(p, "scf.index_switch", "case value", 64)?);
        regions.push(p.parse_region_with_terminator(&[], false, Some("scf.yield"), loc)?);
    }
    p.expect_keyword("default")?;
    let default = p.parse_region_with_terminator(&[], false, Some("scf.yield"), loc)?;
    r.regions.push(default);
    r.regions.extend(regions);
    let a = crate::util::i64_array_attr(p.ir, &cases);
    let k = p.ir.sym("cases");
    r.attrs.push((k, a));
    Ok(())
}

fn print_index_switch(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.print_optional_attr_dict(op, &["cases"]);
    let outs: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
    if !outs.is_empty() {
        p.push(" -> ");
        p.print_type_list(&outs);
    }
    p.push(" ");
    let cases = crate::util::i64_array(ir, op, "cases");
    let regions = ir.regions(op).to_vec();
    for (v, r) in cases.iter().zip(&regions[1..]) {
        p.print_newline();
        p.push(&format!("case {v} "));
        p.print_region(*r, false, true);
    }
    p.print_newline();
    p.push("default ");
    // The generated printer elides a terminator that carries nothing.
    let yields_values = ir
        .region_blocks(regions[0])
        .first()
        .and_then(|b| ir.block_ops(*b).last())
        .is_some_and(|t| !ir.operands(t).is_empty());
    p.print_region(regions[0], false, yields_values);
}

fn verify_index_switch(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let cases = crate::util::i64_array(ir, op, "cases");
    if cases.len() + 1 != ir.regions(op).len() {
        return Err(format!(
            "has {} case regions but {} case values",
            ir.regions(op).len().saturating_sub(1),
            cases.len()
        )
        .into());
    }
    let mut seen = std::collections::HashSet::new();
    for c in &cases {
        if !seen.insert(*c) {
            return Err(format!("has duplicate case value: {c}").into());
        }
    }
    Ok(())
}

fn parse_condition(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.expect(Tok::LParen, "'('")?;
    let c = p.parse_operand()?;
    p.expect(Tok::RParen, "')'")?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    r.operands.push(cv);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ops = p.parse_operand_list()?;
    if !ops.is_empty() {
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        let vs = p.resolve_operands(&ops, &tys, pos)?;
        r.operands.extend(vs);
    }
    Ok(())
}

fn print_condition(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_value(ir.operand(op, 0));
    p.push(")");
    p.print_optional_attr_dict(op, &[]);
    let rest = &ir.operands(op)[1..];
    if !rest.is_empty() {
        p.push(" ");
        p.print_values(rest);
        p.push(" : ");
        p.print_value_types(rest);
    }
}

mod forall;
mod parallel;

pub fn dialect() -> Dialect {
    Dialect::new(
        "scf",
        forall::defs()
            .into_iter()
            .chain(parallel::defs())
            .chain([
                OpDef::new("scf.for")
                    .traits(Traits::SINGLE_BLOCK)
                    .inherent(&["unsignedCmp"])
                    .assembly(parse_for, print_for)
                    .verifier(verify_for)
                    .implicit_terminator("scf.yield"),
                OpDef::new("scf.if")
                    .arity((1, Some(1)), (0, None), 2)
                    .traits(Traits::SINGLE_BLOCK)
                    .assembly(parse_if, print_if)
                    .verifier(verify_if)
                    .implicit_terminator("scf.yield"),
                OpDef::new("scf.while").arity((0, None), (0, None), 2).assembly(parse_while, print_while),
                OpDef::new("scf.execute_region")
                    .arity((0, Some(0)), (0, None), 1)
                    .inherent(&["no_inline"])
                    .assembly(parse_execute_region, print_execute_region)
                    .verifier(verify_execute_region),
                OpDef::new("scf.index_switch")
                    .inherent(&["cases"])
                    .assembly(parse_index_switch, print_index_switch)
                    .verifier(verify_index_switch),
                OpDef::new("scf.yield")
                    .traits(Traits::TERMINATOR | Traits::PURE | Traits::RETURN_LIKE)
                    .assembly(crate::util::parse_terminator_operands, crate::util::print_terminator_operands)
                    .verifier(verify_yield),
                OpDef::new("scf.condition")
                    .traits(Traits::TERMINATOR | Traits::PURE)
                    .assembly(parse_condition, print_condition),
            ])
            .collect(),
    )
}
