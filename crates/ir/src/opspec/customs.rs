//! Custom directives MLIR itself provides, for formats that use them.

use super::{Compiled, CustomDirective, FormatState, Var};
use crate::attrs::{AttrData, DenseArrayData};
use crate::ir::OpId;
use crate::lexer::Tok;
use crate::parser::{PResult, Parser};
use crate::printer::Printer;
use crate::types::DYNAMIC;

/// `custom<DynamicIndexList>($values, $static)`: `[1, %a, 3]`, static
/// entries in the i64 array and `DYNAMIC` where an SSA value stands.
pub const DYNAMIC_INDEX_LIST: CustomDirective =
    CustomDirective { name: "DynamicIndexList", parse: parse_dynamic_index_list, print: print_dynamic_index_list };

/// The same list in parentheses (MLIR's `Delimiter::Paren` variant):
/// `(4, %b)`.
pub const DYNAMIC_INDEX_LIST_PAREN: CustomDirective = CustomDirective {
    name: "DynamicIndexListParen",
    parse: |p, st, args| parse_list(p, st, args, (Tok::LParen, Tok::RParen)),
    print: |p, c, op, args| print_list(p, c, op, args, ("(", ")")),
};

fn slots(c_attrs: &[super::AttrDef], args: &[Var]) -> Option<(usize, &'static str)> {
    match (args.first(), args.get(1)) {
        (Some(Var::Operand(o)), Some(Var::Attr(a))) => Some((*o, c_attrs[*a].name)),
        _ => None,
    }
}

fn parse_dynamic_index_list(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    parse_list(p, st, args, (Tok::LSquare, Tok::RSquare))
}

fn parse_list(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var], delims: (Tok, Tok)) -> PResult<()> {
    let Some(&Var::Operand(o)) = args.first() else { return p.error("bad DynamicIndexList directive") };
    let Some(&Var::Attr(_)) = args.get(1) else { return p.error("bad DynamicIndexList directive") };
    let mut statics = Vec::new();
    let what = if delims.0 == Tok::LParen { "'('" } else { "'['" };
    p.parse_comma_list(Some(delims), what, &mut |p| {
        if p.is(Tok::PercentIdent) {
            let u = p.parse_operand()?;
            st.operands[o].push(u);
            statics.push(DYNAMIC);
        } else {
            let pos = p.pos();
            let v = super::parse::parse_i64(p)?;
            if v == DYNAMIC {
                return p.error_at(pos, "integer value too large");
            }
            statics.push(v);
        }
        Ok(())
    })?;
    let elem = p.ir.int_type(64);
    let a = p.ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(statics) });
    st.set_attr(args[1], a);
    Ok(())
}

fn print_dynamic_index_list(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    print_list(p, c, op, args, ("[", "]"));
}

fn print_list(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var], delims: (&str, &str)) {
    let ir = p.ir;
    let Some((o, name)) = slots(c.spec.attrs, args) else { return };
    let values = c.operand_group(ir, op, o);
    let statics = match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: DenseArrayData::Int(v), .. }) => v.clone(),
        _ => Vec::new(),
    };
    p.push(delims.0);
    let mut next = values.iter();
    for (i, s) in statics.iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        match (*s == DYNAMIC).then(|| next.next()).flatten() {
            Some(v) => p.print_value(*v),
            None => p.push(&s.to_string()),
        }
    }
    p.push(delims.1);
}
