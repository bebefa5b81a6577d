//! `affine.if #set(%dims)[%syms] (-> types)? { ... } (else { ... })?`: a
//! branch on an integer set; the else region stays empty when not written.

use hivm_ir::attrs::AttrData;
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Ir, OpId};

use crate::util::{parse_index_list, push_attr};

pub(super) fn parse_if(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let set = p.parse_attribute(None)?;
    let AttrData::IntegerSet(s) = p.ir.attr_data(set).clone() else {
        return p.op_error_at(pos, "invalid kind of attribute specified");
    };
    let mut dims = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dim operands", &mut |p| {
        dims.push(p.parse_operand()?);
        Ok(())
    })?;
    if dims.len() != s.num_dims as usize {
        return p.op_error_at(r.pos, "dim operand count and integer set dim count must match");
    }
    let syms = if p.is(Tok::LSquare) { parse_index_list(p)? } else { Vec::new() };
    if syms.len() != s.num_symbols as usize {
        return p.op_error_at(r.pos, "symbol operand count and integer set symbol count must match");
    }
    let index = p.ir.index_type();
    for u in dims.iter().chain(&syms) {
        let v = p.resolve_operand(u, index)?;
        r.operands.push(v);
    }
    push_attr(p, r, "condition", set);
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let loc = r.loc;
    let then_r = p.parse_region_with_terminator(&[], false, Some("affine.yield"), loc)?;
    r.regions.push(then_r);
    let else_r = if p.parse_optional_keyword("else") {
        p.parse_region_with_terminator(&[], false, Some("affine.yield"), loc)?
    } else {
        p.ir.new_region()
    };
    r.regions.push(else_r);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

pub(super) fn print_if(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(set) = ir.get_attr(op, "condition") else { return p.print_generic_op(op) };
    let AttrData::IntegerSet(s) = ir.attr_data(set) else { return p.print_generic_op(op) };
    p.push(" ");
    p.print_attr(set, Elide::Never);
    super::print_dim_and_symbol_list(p, ir.operands(op), s.num_dims as usize);
    let results = ir.results(op);
    match results.len() {
        0 => {}
        1 => {
            p.push(" -> ");
            p.print_type(ir.value_type(results[0]));
        }
        _ => {
            p.push(" -> (");
            p.print_value_types(results);
            p.push(")");
        }
    }
    let has_results = !results.is_empty();
    p.push(" ");
    p.print_region(ir.regions(op)[0], false, has_results);
    let else_r = ir.regions(op)[1];
    if !ir.region_blocks(else_r).is_empty() {
        p.push(" else ");
        p.print_region(else_r, false, has_results);
    }
    p.print_optional_attr_dict(op, &["condition"]);
}

pub(super) fn verify_if(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(AttrData::IntegerSet(s)) = ir.get_attr(op, "condition").map(|a| ir.attr_data(a)) else {
        return Err("requires an integer set attribute named 'condition'".into());
    };
    if ir.operands(op).len() != (s.num_dims + s.num_symbols) as usize {
        return Err("operand count and condition integer set dimension and symbol count must match".into());
    }
    super::validity::check_dims_and_symbols(ir, op, ir.operands(op), s.num_dims as usize)?;
    if ir.regions(op).len() != 2 {
        return Err("expected a then and an else region".into());
    }
    if !ir.results(op).is_empty() && ir.region_blocks(ir.regions(op)[1]).is_empty() {
        // MLIR words it as its region-branch interface sees it: control may
        // skip both regions and reach the results with no values.
        return Err(format!(
            "along control flow edge from parent to parent: region branch point has 0 operands, but region successor needs {} inputs",
            ir.results(op).len()
        )
        .into());
    }
    Ok(())
}
