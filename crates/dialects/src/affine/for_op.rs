//! `affine.for` and `affine.yield`, with MLIR's bound syntax: a constant,
//! one SSA symbol, or a map with its dim and symbol operands (`max`/`min`
//! before a map of several results), then `step`, `iter_args` and the body.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::attrs::AttrData;
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg, UnresolvedOperand};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Attribute, Ir, OpId, Value};

use crate::util::{parse_index_list, push_attr, segment, segment_attr};

/// One bound: its map and (unresolved) operands.
/// `op_pos` is where the op's name is, where MLIR reports some of these.
fn parse_bound(p: &mut Parser<'_>, lower: bool, op_pos: u32) -> PResult<(Attribute, Vec<UnresolvedOperand>)> {
    let (keyword, which) = if lower { ("max", "lower") } else { ("min", "upper") };
    let has_keyword = p.parse_optional_keyword(keyword);
    if !has_keyword && p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        let map = AffineMap { num_dims: 0, num_symbols: 1, results: vec![AffineExpr::Symbol(0)] };
        return Ok((p.ir.attr(AttrData::AffineMap(map)), vec![u]));
    }
    let pos = p.pos();
    let index = p.ir.index_type();
    let a = p.parse_attribute(Some(index))?;
    match p.ir.attr_data(a).clone() {
        AttrData::AffineMap(m) => {
            let mut operands = Vec::new();
            p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dim operands", &mut |p| {
                operands.push(p.parse_operand()?);
                Ok(())
            })?;
            if operands.len() != m.num_dims as usize {
                return p.op_error_at(op_pos, "dim operand count and affine map dim count must match");
            }
            if p.is(Tok::LSquare) {
                operands.extend(parse_index_list(p)?);
            }
            if operands.len() != (m.num_dims + m.num_symbols) as usize {
                return p.op_error_at(op_pos, "symbol operand count and affine map symbol count must match");
            }
            if m.results.len() > 1 && !has_keyword {
                return p.op_error_at(
                    pos,
                    format!("{which} loop bound affine map with multiple results requires '{keyword}' prefix"),
                );
            }
            if m.results.is_empty() {
                return p.op_error_at(pos, format!("{which} loop bound affine map cannot have zero results"));
            }
            Ok((a, operands))
        }
        AttrData::Integer { value, .. } if !has_keyword => {
            let map = AffineMap { num_dims: 0, num_symbols: 0, results: vec![AffineExpr::Constant(value as i64)] };
            Ok((p.ir.attr(AttrData::AffineMap(map)), Vec::new()))
        }
        _ => p.op_error_at(op_pos, "expected valid affine map representation for loop bounds"),
    }
}

pub(super) fn parse_for(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let iv_pos = p.pos();
    let iv = p.parse_operand()?;
    let iv_loc = p.loc_at(iv_pos);
    p.expect(Tok::Equal, "'='")?;
    let (lb_map, lb_ops) = parse_bound(p, true, r.pos)?;
    p.expect_keyword("to")?;
    let (ub_map, ub_ops) = parse_bound(p, false, r.pos)?;
    let index = p.ir.index_type();
    let mut step = 1i64;
    if p.parse_optional_keyword("step") {
        let pos = p.pos();
        let a = p.parse_attribute(Some(index))?;
        step = match p.ir.attr_data(a) {
            AttrData::Integer { value, .. } if *value >= i64::MIN as i128 && *value <= i64::MAX as i128 => {
                *value as i64
            }
            _ => return p.op_error_at(pos, "expected step to be representable as a positive signed integer"),
        };
    }
    let (iter_args, inits) = crate::scf::parse_iter_args(p, r)?;
    if inits.len() != r.result_types.len() {
        return p.error("mismatch between the number of loop-carried values and results");
    }
    for u in lb_ops.iter().chain(&ub_ops) {
        let v = p.resolve_operand(u, index)?;
        r.operands.push(v);
    }
    for (u, t) in inits.iter().zip(r.result_types.clone()) {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    let mut args = vec![RegionArg { name: iv, ty: index, loc: Some(iv_loc) }];
    args.extend(iter_args.into_iter().zip(r.result_types.clone()).map(|(name, ty)| RegionArg { name, ty, loc: None }));
    let loc = r.loc;
    let region = p.parse_region_with_terminator(&args, false, Some("affine.yield"), loc)?;
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    push_attr(p, r, "lowerBoundMap", lb_map);
    push_attr(p, r, "upperBoundMap", ub_map);
    let s = p.ir.int_attr(step as i128, index);
    push_attr(p, r, "step", s);
    let seg = segment_attr(p.ir, &[lb_ops.len(), ub_ops.len(), inits.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    Ok(())
}

/// MLIR prints a constant or a single-symbol bound bare, anything else as
/// its map and operands (prefixed with `max`/`min` when it has several
/// results).
fn print_bound(p: &mut Printer<'_>, map: Attribute, operands: &[Value], keyword: &str) {
    let ir = p.ir;
    let AttrData::AffineMap(m) = ir.attr_data(map) else { return };
    if let [e] = &m.results[..] {
        match (m.num_dims, m.num_symbols, e) {
            (0, 0, AffineExpr::Constant(c)) => return p.push(&c.to_string()),
            (0, 1, AffineExpr::Symbol(_)) => return p.print_value(operands[0]),
            _ => {}
        }
    } else {
        p.push(keyword);
        p.push(" ");
    }
    p.print_attr(map, Elide::Never);
    super::print_dim_and_symbol_list(p, operands, m.num_dims as usize);
}

pub(super) fn print_for(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let body = ir.regions(op)[0];
    let (Some(&entry), Some(lb), Some(ub)) =
        (ir.region_blocks(body).first(), ir.get_attr(op, "lowerBoundMap"), ir.get_attr(op, "upperBoundMap"))
    else {
        return p.print_generic_op(op);
    };
    let args = ir.block_args(entry).to_vec();
    p.push(" ");
    p.print_value(args[0]);
    if p.options.debuginfo {
        p.print_arg_loc(ir.block_arg_loc(args[0]).unwrap_or(ir.unknown_loc()));
    }
    p.push(" = ");
    print_bound(p, lb, segment(ir, op, 0), "max");
    p.push(" to ");
    print_bound(p, ub, segment(ir, op, 1), "min");
    let step = ir.get_attr(op, "step").and_then(|a| ir.as_int(a)).unwrap_or(1);
    if step != 1 {
        p.push(&format!(" step {step}"));
    }
    let inits = segment(ir, op, 2);
    if !inits.is_empty() {
        p.push(" iter_args");
        crate::scf::print_init_list(p, &args[1..], inits);
        p.push(" -> (");
        p.print_value_types(ir.results(op));
        p.push(")");
    }
    p.push(" ");
    p.print_region(body, false, !inits.is_empty());
    p.print_optional_attr_dict(op, &["lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"]);
}

pub(super) fn verify_for(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 3)?;
    for (k, seg) in [("lowerBoundMap", 0), ("upperBoundMap", 1)] {
        let Some(AttrData::AffineMap(m)) = ir.get_attr(op, k).map(|a| ir.attr_data(a)) else {
            return Err(format!("requires attribute '{k}'").into());
        };
        if segment(ir, op, seg).len() != (m.num_dims + m.num_symbols) as usize {
            let which = if seg == 0 { "lower" } else { "upper" };
            return Err(
                format!("operand count must match affine map dimension and symbol count ({which} bound)").into()
            );
        }
    }
    for (k, seg) in [("lowerBoundMap", 0), ("upperBoundMap", 1)] {
        if let Some(AttrData::AffineMap(m)) = ir.get_attr(op, k).map(|a| ir.attr_data(a)) {
            super::validity::check_dims_and_symbols(ir, op, segment(ir, op, seg), m.num_dims as usize)?;
        }
    }
    // MLIR 22 accepts any step here (a zero or negative one included).
    if ir.get_attr(op, "step").and_then(|a| ir.as_int(a)).is_none() {
        return Err("requires attribute 'step'".into());
    }
    let inits = segment(ir, op, 2);
    if inits.len() != ir.results(op).len() {
        return Err("mismatch between the number of loop-carried values and results".into());
    }
    let Some(&entry) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()) else {
        return Err("expected a body block".into());
    };
    let args = ir.block_args(entry);
    if args.len() != inits.len() + 1 || !matches!(ir.type_data(ir.value_type(args[0])), hivm_ir::TypeData::Index) {
        return Err("expected body to have a single index argument for the induction variable".into());
    }
    Ok(())
}

/// `affine.yield` ends `affine.for` (and `affine.if`/`affine.parallel`)
/// bodies: `affine.yield %v : T`, elided when it yields nothing.
pub(super) const YIELD: hivm_ir::opspec::OpSpec = hivm_ir::opspec::OpSpec {
    name: "affine.yield",
    operands: &[hivm_ir::opspec::var("operands")],
    format: "attr-dict ($operands^ `:` type($operands))?",
    traits: hivm_ir::Traits::PURE.with(hivm_ir::Traits::TERMINATOR).with(hivm_ir::Traits::RETURN_LIKE),
    verify: Some(verify_yield),
    ..hivm_ir::opspec::OpSpec::EMPTY
};

fn verify_yield(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(parent) = ir.parent_op(op) else { return Ok(()) };
    if !matches!(ir.op_name(parent), "affine.for" | "affine.if" | "affine.parallel") {
        return Ok(());
    }
    if ir.operands(op).len() != ir.results(parent).len() {
        return Err("parent of yield must have same number of results as the yield operands".into());
    }
    if ir.operands(op).iter().zip(ir.results(parent)).any(|(v, r)| ir.value_type(*v) != ir.value_type(*r)) {
        return Err("types mismatch between yield op and its parent".into());
    }
    Ok(())
}
