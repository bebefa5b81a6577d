//! `affine.apply`, `affine.min` and `affine.max` (one syntax: a map and its
//! dim and symbol operands).

use hivm_ir::attrs::AttrData;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits};

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

fn print_apply(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(map) = ir.get_attr(op, "map") else { return };
    let AttrData::AffineMap(m) = ir.attr_data(map) else { return };
    p.push(" ");
    p.print_attr(map, Elide::Never);
    let nd = m.num_dims as usize;
    p.push("(");
    p.print_values(&ir.operands(op)[..nd]);
    p.push(")");
    if m.num_symbols > 0 {
        print_index_list(p, &ir.operands(op)[nd..]);
    }
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

pub fn dialect() -> Dialect {
    Dialect::new(
        "affine",
        vec![
            OpDef::new("affine.apply")
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_apply),
            OpDef::new("affine.min")
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_min_max),
            OpDef::new("affine.max")
                .traits(Traits::PURE)
                .inherent(&["map"])
                .assembly(parse_apply, print_apply)
                .verifier(verify_min_max),
        ],
    )
}
