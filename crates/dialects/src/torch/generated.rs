//! The ops torch-mlir generates from PyTorch's operator registry
//! (`torch.aten.*`, `torch.prims.*`), in the one form they all share:
//! operands, an optional attribute dictionary, `:`, the operand types,
//! and `->` with the result types when there are both operands and
//! results. Each family is a single definition (a name ending in `*`), so
//! any op under the prefix parses; the checks are the generic ones every
//! generated op satisfies.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId};

use super::types::{self, summary};

fn parse_default(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let operands = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Colon, "':'")?;
    if !operands.is_empty() {
        let tys = p.parse_type_list_no_parens()?;
        r.operands = p.resolve_operands(&operands, &tys, pos)?;
        if p.is(Tok::Arrow) {
            p.bump();
            r.result_types = p.parse_type_list_no_parens()?;
        }
    } else if let Some(t) = p.parse_optional_type()? {
        // With no operands the types after `:` are the results'.
        r.result_types.push(t);
        while p.consume_if(Tok::Comma) {
            let t = p.parse_type()?;
            r.result_types.push(t);
        }
    }
    Ok(())
}

fn print_default(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let (operands, results) = (ir.operands(op), ir.results(op));
    if !operands.is_empty() {
        p.push(" ");
        p.print_values(operands);
    }
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_value_types(operands);
    if !operands.is_empty() && !results.is_empty() {
        p.push(" -> ");
    }
    p.print_value_types(results);
}

/// Every operand and result of a generated op has a torch type.
fn verify_default(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for (what, values) in [("operand", ir.operands(op)), ("result", ir.results(op))] {
        for (i, v) in values.iter().enumerate() {
            let t = ir.value_type(*v);
            if !types::of(ir, t).is_any_torch() {
                let got = hivm_ir::printer::type_to_string(ir, t);
                return Err(format!("{what} #{i} must be {}, but got '{got}'", summary::ANY_TORCH).into());
            }
        }
    }
    Ok(())
}

fn family(name: &'static str) -> OpDef {
    OpDef::new(name)
        .arity((0, None), (0, None), 0)
        .traits(hivm_ir::Traits::ZERO_REGIONS)
        .assembly(parse_default, print_default)
        .invariants(verify_default)
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![family("torch.aten.*"), family("torch.prims.*")]
}
