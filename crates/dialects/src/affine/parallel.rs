//! `affine.parallel`: a parallel band of loops whose bounds are affine
//! expressions of SSA values, each bound the max (lower) or min (upper) of a
//! group of expressions, with constant steps and optional reductions.
//!
//! ```text
//! affine.parallel (%i, %j) = (0, max(%a, %b)) to (%n, 10) step (2, 1)
//!     reduce ("addf") -> (f32) { ... affine.yield %v : f32 }
//! ```
//!
//! All lower bounds share one map (`lowerBoundsMap`, its results split into
//! groups by `lowerBoundsGroups`), likewise the upper bounds; their operands
//! are deduplicated as MLIR does, lower-bound operands first.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::attrs::DenseElem;
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Attribute, Ir, OpDef, OpId, Traits, TypeData, Value};

use crate::memref::ATOMIC_RMW_KIND;
use crate::util::push_attr;

const ATTRS: &[&str] =
    &["lowerBoundsGroups", "lowerBoundsMap", "reductions", "steps", "upperBoundsGroups", "upperBoundsMap"];

/// `getI32TensorAttr`: `dense<[...]> : tensor<Nxi32>`.
fn i32_tensor(ir: &mut Ir, values: &[i64]) -> Attribute {
    let elem = ir.int_type(32);
    let ty = ir.ty(TypeData::RankedTensor { shape: vec![values.len() as i64], elem, encoding: None });
    let splat = !values.is_empty() && values.iter().all(|v| *v == values[0]);
    let elems = if splat {
        vec![DenseElem::Int(values[0] as i128)]
    } else {
        values.iter().map(|v| DenseElem::Int(*v as i128)).collect()
    };
    ir.attr(AttrData::DenseElements { ty, splat, elems })
}

fn tensor_values(ir: &Ir, a: Attribute) -> Option<Vec<i64>> {
    let AttrData::DenseElements { ty, splat, elems } = ir.attr_data(a) else { return None };
    let n = ir.type_data(*ty).shape()?.iter().product::<i64>().max(0) as usize;
    let ints: Option<Vec<i64>> = elems
        .iter()
        .map(|e| match e {
            DenseElem::Int(v) => Some(*v as i64),
            _ => None,
        })
        .collect();
    let ints = ints?;
    Some(if *splat { vec![*ints.first()?; n] } else { ints })
}

/// One bound list, `(e0, max(e1, e2), ...)`: the flat map, the group sizes
/// and the deduplicated operands (dims, then symbols).
fn parse_bounds(p: &mut Parser<'_>, keyword: &str) -> PResult<(AffineMap, Vec<i64>, Vec<UnresolvedOperand>)> {
    p.expect(Tok::LParen, "'('")?;
    if p.consume_if(Tok::RParen) {
        return Ok((AffineMap { num_dims: 0, num_symbols: 0, results: Vec::new() }, Vec::new(), Vec::new()));
    }
    // Each expression with the dims and symbols it was written with.
    let mut flat: Vec<(AffineExpr, Vec<UnresolvedOperand>, Vec<UnresolvedOperand>)> = Vec::new();
    let mut groups = Vec::new();
    loop {
        if p.parse_optional_keyword(keyword) {
            let (map, ids) = p.parse_affine_map_of_ssa_ids_in((Tok::LParen, Tok::RParen))?;
            groups.push(map.results.len() as i64);
            for e in map.results {
                flat.push((e, ids.dims.clone(), ids.symbols.clone()));
            }
        } else {
            let (e, ids) = p.parse_affine_expr_of_ssa_ids()?;
            groups.push(1);
            flat.push((e, ids.dims, ids.symbols));
        }
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    p.expect(Tok::RParen, "')'")?;
    // Give every expression ids of its own, then merge repeated values.
    let same = |a: &UnresolvedOperand, b: &UnresolvedOperand| a.name == b.name && a.number == b.number;
    let (mut dims, mut syms): (Vec<UnresolvedOperand>, Vec<UnresolvedOperand>) = (Vec::new(), Vec::new());
    let mut results = Vec::new();
    for (e, edims, esyms) in flat {
        let unique = |list: &mut Vec<UnresolvedOperand>, u: &UnresolvedOperand| -> u32 {
            match list.iter().position(|x| same(x, u)) {
                Some(i) => i as u32,
                None => {
                    list.push(u.clone());
                    list.len() as u32 - 1
                }
            }
        };
        let d: Vec<AffineExpr> = edims.iter().map(|u| AffineExpr::Dim(unique(&mut dims, u))).collect();
        let s: Vec<AffineExpr> = esyms.iter().map(|u| AffineExpr::Symbol(unique(&mut syms, u))).collect();
        results.push(e.replace(&d, &s));
    }
    let map = AffineMap { num_dims: dims.len() as u32, num_symbols: syms.len() as u32, results };
    dims.extend(syms);
    Ok((map, groups, dims))
}

fn parse_parallel(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut ivs = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "argument list", &mut |p| {
        ivs.push(p.parse_operand()?);
        Ok(())
    })?;
    p.expect(Tok::Equal, "'='")?;
    let (lb_map, lb_groups, lb_ops) = parse_bounds(p, "max")?;
    p.expect_keyword("to")?;
    let (ub_map, ub_groups, ub_ops) = parse_bounds(p, "min")?;
    let steps: Vec<i64> = if p.parse_optional_keyword("step") {
        let (map, _) = p.parse_affine_map_of_ssa_ids_in((Tok::LParen, Tok::RParen))?;
        let mut steps = Vec::new();
        for e in map.results {
            let AffineExpr::Constant(c) = e else {
                return p.op_error_at(r.pos, "steps must be constant integers");
            };
            steps.push(c);
        }
        steps
    } else {
        vec![1; ivs.len()]
    };
    let mut reductions = Vec::new();
    if p.parse_optional_keyword("reduce") {
        p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "reductions", &mut |p| {
            let pos = p.pos();
            let name = p.parse_utf8_string("reduction")?;
            let Some(kind) = ATOMIC_RMW_KIND.value_of(&name) else {
                return p.op_error_at(pos, format!("invalid reduction value: \"{name}\""));
            };
            let i64t = p.ir.int_type(64);
            reductions.push(p.ir.int_attr(kind as i128, i64t));
            Ok(())
        })?;
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let index = p.ir.index_type();
    let args = ivs.into_iter().map(|name| RegionArg { name, ty: index, loc: None }).collect();
    let args = crate::util::locate_args(p, args);
    let loc = r.loc;
    let region = p.parse_region_with_terminator(&args, false, Some("affine.yield"), loc)?;
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    for u in lb_ops.iter().chain(&ub_ops) {
        let v = p.resolve_operand(u, index)?;
        r.operands.push(v);
    }
    let reductions = p.ir.array_attr(reductions);
    push_attr(p, r, "reductions", reductions);
    for (name, map, groups) in [("lowerBounds", lb_map, lb_groups), ("upperBounds", ub_map, ub_groups)] {
        let m = p.ir.attr(AttrData::AffineMap(map));
        push_attr(p, r, &format!("{name}Map"), m);
        let g = i32_tensor(p.ir, &groups);
        push_attr(p, r, &format!("{name}Groups"), g);
    }
    let i64t = p.ir.int_type(64);
    let steps: Vec<Attribute> = steps.iter().map(|s| p.ir.int_attr(*s as i128, i64t)).collect();
    let steps = p.ir.array_attr(steps);
    push_attr(p, r, "steps", steps);
    Ok(())
}

/// The map, its group sizes and its operands, as the verifier left them.
fn bounds(ir: &Ir, op: OpId, lower: bool) -> Option<(&AffineMap, Vec<i64>, &[Value])> {
    let name = if lower { "lowerBounds" } else { "upperBounds" };
    let AttrData::AffineMap(m) = ir.attr_data(ir.get_attr(op, &format!("{name}Map"))?) else { return None };
    let groups = tensor_values(ir, ir.get_attr(op, &format!("{name}Groups"))?)?;
    let lb_inputs = match ir.attr_data(ir.get_attr(op, "lowerBoundsMap")?) {
        AttrData::AffineMap(l) => (l.num_dims + l.num_symbols) as usize,
        _ => return None,
    };
    let operands = ir.operands(op);
    let operands = if lower { operands.get(..lb_inputs)? } else { operands.get(lb_inputs..)? };
    Some((m, groups, operands))
}

fn print_bounds(p: &mut Printer<'_>, op: OpId, lower: bool) {
    let Some((map, groups, operands)) = bounds(p.ir, op, lower) else { return };
    let keyword = if lower { "max" } else { "min" };
    let nd = map.num_dims as usize;
    let mut start = 0usize;
    let mut out = String::new();
    for (i, g) in groups.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let end = (start + *g as usize).min(map.results.len());
        let exprs = &map.results[start.min(end)..end];
        let text = super::exprs_of_ssa_ids(p, exprs, operands, nd);
        if *g == 1 {
            out.push_str(&text);
        } else {
            out.push_str(&format!("{keyword}({text})"));
        }
        start = end;
    }
    p.push(&out);
}

fn print_parallel(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(&region) = ir.regions(op).first() else { return p.print_generic_op(op) };
    let Some(&body) = ir.region_blocks(region).first() else { return p.print_generic_op(op) };
    p.push(" (");
    p.print_values(ir.block_args(body));
    p.push(") = (");
    print_bounds(p, op, true);
    p.push(") to (");
    print_bounds(p, op, false);
    p.push(")");
    let ints = |name: &str| -> Vec<i64> {
        match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
            Some(AttrData::Array(v)) => v.iter().map(|a| ir.as_int(*a).unwrap_or(0) as i64).collect(),
            _ => Vec::new(),
        }
    };
    let steps = ints("steps");
    if steps.iter().any(|s| *s != 1) {
        let s: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        p.push(&format!(" step ({})", s.join(", ")));
    }
    if !ir.results(op).is_empty() {
        let names: Vec<String> =
            ints("reductions").iter().map(|k| format!("\"{}\"", ATOMIC_RMW_KIND.name_of(*k).unwrap_or("?"))).collect();
        p.push(&format!(" reduce ({}) -> (", names.join(", ")));
        p.print_value_types(ir.results(op));
        p.push(")");
    }
    p.push(" ");
    p.print_region(region, false, !ir.results(op).is_empty());
    p.print_optional_attr_dict(op, ATTRS);
}

fn verify_parallel(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for name in ATTRS {
        if ir.get_attr(op, name).is_none() {
            return Err(format!("requires attribute '{name}'").into());
        }
    }
    let array_len = |name: &str| match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::Array(v)) => Some(v.len()),
        _ => None,
    };
    let (Some(n_steps), Some(_)) = (array_len("steps"), array_len("reductions")) else {
        return Err("attribute 'steps' failed to satisfy constraint: 64-bit integer array attribute".into());
    };
    let groups = |name: &str| ir.get_attr(op, name).and_then(|a| tensor_values(ir, a));
    let (Some(lbg), Some(ubg)) = (groups("lowerBoundsGroups"), groups("upperBoundsGroups")) else {
        return Err("attribute 'lowerBoundsGroups' failed to satisfy constraint: 32-bit signless integer elements \
                    attribute"
            .into());
    };
    let map = |name: &str| match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::AffineMap(m)) => Some(m.clone()),
        _ => None,
    };
    let (Some(lb), Some(ub)) = (map("lowerBoundsMap"), map("upperBoundsMap")) else {
        return Err("attribute 'lowerBoundsMap' failed to satisfy constraint: AffineMap attribute".into());
    };
    let body = ir.region_blocks(ir.regions(op)[0]).first().copied();
    let n_args = body.map_or(0, |b| ir.block_args(b).len());
    if lbg.len() != n_steps || ubg.len() != n_steps || n_args != n_steps {
        return Err(format!(
            "the number of region arguments ({n_args}) and the number of map groups for lower ({}) and upper bound \
             ({}), and the number of steps ({n_steps}) must all match",
            lbg.len(),
            ubg.len()
        )
        .into());
    }
    for (which, g, m) in [("lower", &lbg, &lb), ("upper", &ubg, &ub)] {
        let want: i64 = g.iter().map(|v| (*v as u32) as i64).sum();
        if want != m.results.len() as i64 {
            return Err(format!("expected {which} bounds map to have {want} results").into());
        }
    }
    if ir.operands(op).len() != (lb.num_dims + lb.num_symbols + ub.num_dims + ub.num_symbols) as usize {
        return Err("operand count must match the bounds maps' dimension and symbol counts".into());
    }
    let reductions = match ir.get_attr(op, "reductions").map(|a| ir.attr_data(a)) {
        Some(AttrData::Array(v)) => v.clone(),
        _ => Vec::new(),
    };
    if reductions.len() != ir.results(op).len() {
        return Err("a reduction must be specified for each output".into());
    }
    for (a, r) in reductions.iter().zip(ir.results(op)) {
        let Some(kind) = ir.as_int(*a).and_then(|k| ATOMIC_RMW_KIND.name_of(k as i64)) else {
            return Err("invalid reduction attribute".into());
        };
        if !reduction_fits(ir, kind, ir.value_type(*r)) {
            return Err("result type cannot match reduction attribute".into());
        }
    }
    let operands = ir.operands(op);
    let n_lb = (lb.num_dims + lb.num_symbols) as usize;
    super::validity::check_dims_and_symbols(ir, op, &operands[..n_lb], lb.num_dims as usize)?;
    super::validity::check_dims_and_symbols(ir, op, &operands[n_lb..], ub.num_dims as usize)
}

/// Whether a result of type `t` can be reduced with `kind`
/// (`isResultTypeMatchAtomicRMWKind`; signed/unsigned kinds want integers
/// of that signedness).
fn reduction_fits(ir: &Ir, kind: &str, t: hivm_ir::Type) -> bool {
    use hivm_ir::types::Signedness;
    let d = ir.type_data(t);
    let float = matches!(d, TypeData::Float(_));
    let int = matches!(d, TypeData::Integer { .. });
    match kind {
        "addf" | "mulf" | "maximumf" | "minimumf" => float,
        "addi" | "muli" | "ori" | "andi" => int,
        "assign" => true,
        "maxs" | "mins" => matches!(d, TypeData::Integer { signedness: Signedness::Signed, .. }),
        "maxu" | "minu" => matches!(d, TypeData::Integer { signedness: Signedness::Unsigned, .. }),
        _ => false,
    }
}

pub(super) fn def() -> OpDef {
    OpDef::new("affine.parallel")
        .arity((0, None), (0, None), 1)
        .traits(Traits::SINGLE_BLOCK)
        .inherent(ATTRS)
        .assembly(parse_parallel, print_parallel)
        .verifier(verify_parallel)
        .implicit_terminator("affine.yield")
}
