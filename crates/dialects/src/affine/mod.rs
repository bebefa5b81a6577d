//! `affine.apply`, `affine.min` and `affine.max` (one syntax: a map and its
//! dim and symbol operands), `affine.load` / `affine.store` (and their
//! `vector_` forms), whose
//! subscripts are affine expressions of SSA values, `affine.for`
//! (`for_op.rs`), `affine.if` (`if_op.rs`), `affine.parallel`
//! (`parallel.rs`) and the index (de)linearization ops (`linearize.rs`).

mod for_op;
mod if_op;
mod linearize;
mod parallel;
mod validity;

use hivm_ir::affine::AffineExpr;
use hivm_ir::attrs::AttrData;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, Value};

use crate::util::*;

fn parse_apply(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let map = p.parse_attribute(None)?;
    let AttrData::AffineMap(m) = p.ir.attr_data(map).clone() else { return p.error_at(pos, "expected affine map") };
    let mut dims = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dim operands", &mut |p| {
        dims.push(p.parse_operand()?);
        Ok(())
    })?;
    let mut syms = Vec::new();
    if p.is(Tok::LSquare) {
        syms = parse_index_list(p)?;
    }
    if dims.len() != m.num_dims as usize || syms.len() != m.num_symbols as usize {
        return p.error_at(pos, "dimension or symbol index mismatch");
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let it = p.ir.index_type();
    resolve_all(p, &dims, it, r)?;
    resolve_all(p, &syms, it, r)?;
    push_attr(p, r, "map", map);
    r.result_types.push(it);
    Ok(())
}

/// `(%d0, %d1)[%s0]`: MLIR's dim-and-symbol list (the parentheses always,
/// the brackets only with symbols).
pub(crate) fn print_dim_and_symbol_list(p: &mut Printer<'_>, operands: &[Value], num_dims: usize) {
    p.push("(");
    p.print_values(&operands[..num_dims]);
    p.push(")");
    if operands.len() > num_dims {
        print_index_list(p, &operands[num_dims..]);
    }
}

fn print_apply(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(map) = ir.get_attr(op, "map") else { return };
    let AttrData::AffineMap(m) = ir.attr_data(map) else { return };
    p.push(" ");
    p.print_attr(map, Elide::Never);
    print_dim_and_symbol_list(p, ir.operands(op), m.num_dims as usize);
    p.print_optional_attr_dict(op, &["map"]);
}

fn verify_apply(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "map").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'map'".into());
    };
    if ir.operands(op).len() != (m.num_dims + m.num_symbols) as usize {
        return Err("operand count and affine map dimension and symbol count must match".into());
    }
    if m.results.len() != 1 {
        return Err("mapping must produce one value".into());
    }
    Ok(())
}

fn verify_min_max(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "map").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'map'".into());
    };
    if ir.operands(op).len() != (m.num_dims + m.num_symbols) as usize {
        return Err("operand count and affine map dimension and symbol count must match".into());
    }
    if m.results.is_empty() {
        return Err("affine map expect at least one result".into());
    }
    Ok(())
}

/// `%memref[subscripts] {attrs} : memref-type`, the part `affine.load` and
/// `affine.store` share; the map and its operands go into `r`.
fn parse_access(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<hivm_ir::Type> {
    let m = p.parse_operand()?;
    let (map, ids) = p.parse_affine_map_of_ssa_ids()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(t).element_type().filter(|_| p.ir.type_data(t).is_memref()) else {
        let found = type_str(p.ir, t);
        return p
            .op_error_at(pos, format!("invalid kind of type specified: expected builtin.memref, but found '{found}'"));
    };
    let v = p.resolve_operand(&m, t)?;
    r.operands.push(v);
    let it = p.ir.index_type();
    resolve_all(p, &ids.dims, it, r)?;
    resolve_all(p, &ids.symbols, it, r)?;
    let map = p.ir.attr(AttrData::AffineMap(map));
    push_attr(p, r, "map", map);
    Ok(elem)
}

fn parse_load(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let elem = parse_access(p, r)?;
    r.result_types.push(elem);
    Ok(())
}

fn parse_store(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let v = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let elem = parse_access(p, r)?;
    let value = p.resolve_operand(&v, elem)?;
    r.operands.insert(0, value);
    Ok(())
}

/// `%memref[subscripts] {attrs} : type`, dims written as their values and
/// symbols as `symbol(%v)`.
fn print_access(p: &mut Printer<'_>, op: OpId, memref: usize) {
    let ir = p.ir;
    p.print_value(ir.operand(op, memref));
    p.push("[");
    if let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "map").map(|a| ir.attr_data(a)) {
        let operands: &[Value] = &ir.operands(op)[memref + 1..];
        let text = exprs_of_ssa_ids(p, &m.results, operands, m.num_dims as usize);
        p.push(&text);
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["map"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, memref)));
}

/// Affine expressions with their dims written as the SSA values they stand
/// for and their symbols as `symbol(%v)`, comma separated (MLIR's
/// `printAffineMapOfSSAIds`); `operands` are the dims' then the symbols'.
pub(crate) fn exprs_of_ssa_ids(p: &Printer<'_>, exprs: &[AffineExpr], operands: &[Value], num_dims: usize) -> String {
    let names: Vec<String> = operands.iter().map(|v| p.value_text(*v)).collect();
    let mut out = String::new();
    for (i, e) in exprs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        e.print_with(&mut out, &|out, leaf| match leaf {
            AffineExpr::Dim(d) => out.push_str(names.get(*d as usize).map_or("?", String::as_str)),
            AffineExpr::Symbol(s) => {
                out.push_str("symbol(");
                out.push_str(names.get(num_dims + *s as usize).map_or("?", String::as_str));
                out.push(')');
            }
            _ => {}
        });
    }
    out
}

fn print_load(p: &mut Printer<'_>, op: OpId) {
    p.push(" ");
    print_access(p, op, 0);
}

fn print_store(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(", ");
    print_access(p, op, 1);
}

/// A type that must be a vector (ODS's typed `type($result)`).
fn parse_vector_type(p: &mut Parser<'_>) -> PResult<hivm_ir::Type> {
    let pos = p.pos();
    let t = p.parse_type()?;
    if !matches!(p.ir.type_data(t), hivm_ir::TypeData::Vector { .. }) {
        let found = type_str(p.ir, t);
        return p
            .op_error_at(pos, format!("invalid kind of type specified: expected builtin.vector, but found '{found}'"));
    }
    Ok(t)
}

/// `affine.vector_load %m[..] : memref-type, vector-type`.
fn parse_vector_load(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_access(p, r)?;
    p.expect(Tok::Comma, "','")?;
    let t = parse_vector_type(p)?;
    r.result_types.push(t);
    Ok(())
}

/// `affine.vector_store %v, %m[..] : memref-type, vector-type`.
fn parse_vector_store(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let v = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    parse_access(p, r)?;
    p.expect(Tok::Comma, "','")?;
    let t = parse_vector_type(p)?;
    let value = p.resolve_operand(&v, t)?;
    r.operands.insert(0, value);
    Ok(())
}

fn print_vector_load(p: &mut Printer<'_>, op: OpId) {
    print_load(p, op);
    p.push(", ");
    p.print_type(p.ir.value_type(p.ir.results(op)[0]));
}

fn print_vector_store(p: &mut Printer<'_>, op: OpId) {
    print_store(p, op);
    p.push(", ");
    p.print_type(p.ir.value_type(p.ir.operand(op, 0)));
}

/// The vector of a vector load (its result) or store (its value operand)
/// has the memref's element type.
fn verify_vector_access(ir: &Ir, op: OpId, memref: usize) -> Result<(), hivm_ir::dialect::VerifyError> {
    let vector = if memref == 0 { ir.results(op)[0] } else { ir.operand(op, 0) };
    let vt = ir.value_type(vector);
    let hivm_ir::TypeData::Vector { elem, .. } = ir.type_data(vt) else {
        let what = if memref == 0 { "result #0" } else { "operand #0" };
        return Err(format!("{what} must be vector of any type values, but got '{}'", type_str(ir, vt)).into());
    };
    verify_access(ir, op, memref)?;
    let memref_elem = ir.type_data(ir.value_type(ir.operand(op, memref))).element_type();
    if memref_elem != Some(*elem) {
        return Err("requires memref and vector types of the same elemental type".into());
    }
    Ok(())
}

fn verify_access(ir: &Ir, op: OpId, memref: usize) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "map").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'map'".into());
    };
    let Some(&mv) = ir.operands(op).get(memref) else { return Err("requires a memref operand".into()) };
    let rank = match ir.type_data(ir.value_type(mv)) {
        hivm_ir::TypeData::MemRef { shape, .. } => shape.len(),
        _ => return Err("operand must be a memref".into()),
    };
    if m.results.len() != rank {
        return Err("affine map num results must equal memref rank".into());
    }
    if ir.operands(op).len() != memref + 1 + (m.num_dims + m.num_symbols) as usize {
        return Err("expects as many subscripts as affine map inputs".into());
    }
    validity::check_dims_and_symbols(ir, op, &ir.operands(op)[memref + 1..], m.num_dims as usize)
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "affine",
        vec![
            OpDef::new("affine.apply")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_apply),
            OpDef::new("affine.min")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_min_max),
            OpDef::new("affine.max")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_min_max),
            OpDef::new("affine.load")
                .arity((1, None), (1, Some(1)), 0)
                .inherent(&["map"])
                .assembly(parse_load, print_load)
                .verifier(|ir, op| verify_access(ir, op, 0)),
            OpDef::new("affine.store")
                .arity((2, None), (0, Some(0)), 0)
                .inherent(&["map"])
                .assembly(parse_store, print_store)
                .verifier(|ir, op| verify_access(ir, op, 1)),
            OpDef::new("affine.vector_load")
                .arity((1, None), (1, Some(1)), 0)
                .inherent(&["map"])
                .assembly(parse_vector_load, print_vector_load)
                .verifier(|ir, op| verify_vector_access(ir, op, 0)),
            OpDef::new("affine.vector_store")
                .arity((2, None), (0, Some(0)), 0)
                .inherent(&["map"])
                .assembly(parse_vector_store, print_vector_store)
                .verifier(|ir, op| verify_vector_access(ir, op, 1)),
            OpDef::new("affine.for")
                .arity((0, None), (0, None), 1)
                .traits(Traits::SINGLE_BLOCK)
                .inherent(&["lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"])
                .assembly(for_op::parse_for, for_op::print_for)
                .verifier(for_op::verify_for)
                .implicit_terminator("affine.yield"),
            OpDef::new("affine.if")
                .arity((0, None), (0, None), 2)
                .traits(Traits::SINGLE_BLOCK)
                .inherent(&["condition"])
                .assembly(if_op::parse_if, if_op::print_if)
                .verifier(if_op::verify_if)
                .implicit_terminator("affine.yield"),
            parallel::def(),
            for_op::YIELD.def(),
        ]
        .into_iter()
        .chain(linearize::defs())
        .collect(),
    )
}
