//! AscendNPU-IR's `memref_ext` dialect: `memref_ext.alloc_workspace`, a
//! buffer carved out of a workspace argument (at an offset) or allocated.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Dialect, Ir, OpDef, OpId, TypeData};

use crate::util::*;

/// `(sizes) [from %ws] [offset = [%o, ...]] attrs : [from type to] type`.
fn parse_alloc_workspace(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut dyns = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dynamic sizes", &mut |p| {
        dyns.push(p.parse_operand()?);
        Ok(())
    })?;
    let ws = if p.parse_optional_keyword("from") { Some(p.parse_operand()?) } else { None };
    let mut offsets = Vec::new();
    if p.parse_optional_keyword("offset") {
        p.expect(Tok::Equal, "'='")?;
        offsets = parse_index_list(p)?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Colon, "':'")?;
    let ws_ty = if p.parse_optional_keyword("from") {
        let t = p.parse_type()?;
        p.expect_keyword("to")?;
        Some(t)
    } else {
        None
    };
    let ty = p.parse_type()?;
    match (&ws, ws_ty) {
        (Some(w), Some(t)) => {
            let v = p.resolve_operand(w, t)?;
            r.operands.push(v);
        }
        (None, None) => {}
        _ => return p.error("expected a workspace operand and its type together ('from %ws' and ': from type to')"),
    }
    let idx = p.ir.index_type();
    resolve_all(p, &dyns, idx, r)?;
    resolve_all(p, &offsets, idx, r)?;
    let seg = segment_attr(p.ir, &[ws.is_some() as usize, dyns.len(), offsets.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.result_types.push(ty);
    Ok(())
}

fn print_alloc_workspace(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(segment(ir, op, 1));
    p.push(")");
    let ws = segment(ir, op, 0).first().copied();
    if let Some(w) = ws {
        p.push(" from ");
        p.print_value(w);
    }
    let offsets = segment(ir, op, 2);
    if !offsets.is_empty() {
        p.push(" offset = [");
        p.print_values(offsets);
        p.push("]");
    }
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    p.push(" : ");
    if let Some(w) = ws {
        p.push("from ");
        p.print_type(ir.value_type(w));
        p.push(" to ");
    }
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_alloc_workspace(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 3)?;
    let t = ir.value_type(ir.result(op, 0));
    let TypeData::MemRef { shape, .. } = ir.type_data(t) else {
        return Err(format!("result #0 must be memref of any type values, but got '{}'", type_str(ir, t)).into());
    };
    if let Some(w) = segment(ir, op, 0).first()
        && !matches!(ir.type_data(ir.value_type(*w)), TypeData::MemRef { .. })
    {
        return Err(format!(
            "operand #0 must be memref of any type values, but got '{}'",
            type_str(ir, ir.value_type(*w))
        )
        .into());
    }
    if segment(ir, op, 1).len() != shape.iter().filter(|d| **d == DYNAMIC).count() {
        return Err("dimension operand count does not equal memref dynamic dimension count".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "memref_ext",
        vec![
            OpDef::new("memref_ext.alloc_workspace")
                .inherent(&["operandSegmentSizes"])
                .assembly(parse_alloc_workspace, print_alloc_workspace)
                .verifier(verify_alloc_workspace),
        ],
    )
}
