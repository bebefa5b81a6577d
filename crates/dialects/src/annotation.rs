//! `annotation.mark`: attaches attributes (and optionally values) to a value.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Attribute, Dialect, Ir, OpDef, OpId};

use crate::util::push_attr;

/// `effects` defaults to `["write"]` and is elided from the custom form then.
fn default_effects(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    let w = ir.str_attr("write");
    vec![("effects", ir.array_attr(vec![w]))]
}

fn parse_mark(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let src = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    if p.parse_optional_keyword("keys") {
        p.expect(Tok::Equal, "'='")?;
        let k = p.parse_attribute(None)?;
        push_attr(p, r, "keys", k);
    }
    let mut vals = Vec::new();
    let mut tys = Vec::new();
    if p.parse_optional_keyword("values") {
        p.expect(Tok::Equal, "'='")?;
        p.expect(Tok::LSquare, "'['")?;
        vals = p.parse_operand_list()?;
        tys = p.parse_colon_type_list()?;
        p.expect(Tok::RSquare, "']'")?;
    }
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let sv = p.resolve_operand(&src, t)?;
    r.operands.push(sv);
    let vs = p.resolve_operands(&vals, &tys, pos)?;
    r.operands.extend(vs);
    Ok(())
}

fn print_mark(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let mut elided = vec!["keys"];
    let default = ir
        .get_attr(op, "effects")
        .and_then(|a| ir.as_array(a))
        .is_some_and(|a| a.len() == 1 && ir.as_str(a[0]) == Some("write"));
    if default {
        elided.push("effects");
    }
    p.print_optional_attr_dict(op, &elided);
    if let Some(k) = ir.get_attr(op, "keys") {
        p.push(" keys = ");
        p.print_attr(k, Elide::Never);
    }
    let vals = &ir.operands(op)[1..];
    if !vals.is_empty() {
        p.push(" values = [");
        p.print_values(vals);
        p.push(" : ");
        p.print_value_types(vals);
        p.push("]");
    }
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "annotation",
        vec![
            OpDef::new("annotation.mark")
                .arity((1, None), (0, Some(0)), 0)
                .inherent(&["effects", "keys"])
                .assembly(parse_mark, print_mark)
                .defaults(&["effects"], default_effects),
        ],
    )
}
