//! Custom directives of the transform ops' formats, as MLIR's
//! `parse`/`print` functions of the same names write them.

use hivm_ir::attrs::{AttrData, DenseArrayData};
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{Compiled, CustomDirective, FormatState, Var};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Attribute, Ir, OpId};

fn attr_name(c: &Compiled, v: Var) -> Option<&'static str> {
    match v {
        Var::Attr(i) => c.spec.attrs.get(i).map(|a| a.name),
        _ => None,
    }
}

fn attr_of(ir: &Ir, c: &Compiled, op: OpId, v: Option<&Var>) -> Option<Attribute> {
    v.and_then(|v| attr_name(c, *v)).and_then(|n| ir.get_attr(op, n))
}

fn ints(ir: &Ir, a: Option<Attribute>) -> Vec<i64> {
    match a.map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: DenseArrayData::Int(v), .. }) => v.clone(),
        _ => Vec::new(),
    }
}

fn dense_array(p: &mut Parser<'_>, width: u32, values: Vec<i64>) -> Attribute {
    let elem = p.ir.int_type(width);
    p.ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(values) })
}

/// `custom<DynamicIndexList>($values, $static[, $scalable])`: `[4, %n, [8]]`,
/// a bracketed entry being scalable; the static list holds `DYNAMIC` where a
/// value stands.
pub(super) const DYNAMIC_INDEX_LIST: CustomDirective =
    CustomDirective { name: "DynamicIndexList", parse: parse_dynamic_index_list, print: print_dynamic_index_list };

pub(super) fn parse_index_entries(
    p: &mut Parser<'_>,
    st: &mut FormatState,
    operand: usize,
) -> PResult<(Vec<i64>, Vec<bool>)> {
    let mut statics = Vec::new();
    let mut scalable = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        // As MLIR: an operand first, then a `[` marking a scalable entry.
        let value = if p.is(Tok::PercentIdent) { Some(p.parse_operand()?) } else { None };
        let is_scalable = p.consume_if(Tok::LSquare);
        scalable.push(is_scalable);
        match value {
            Some(u) => {
                st.operands[operand].push(u);
                statics.push(DYNAMIC);
            }
            None => {
                let pos = p.pos();
                let v = p.parse_integer("integer value")?;
                match i64::try_from(v) {
                    Ok(v) if v != DYNAMIC => statics.push(v),
                    _ => return p.error_at(pos, "integer value too large"),
                }
            }
        }
        if is_scalable {
            p.expect(Tok::RSquare, "']'")?;
        }
        Ok(())
    })?;
    Ok((statics, scalable))
}

fn parse_dynamic_index_list(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let (Some(&Var::Operand(o)), Some(&static_var)) = (args.first(), args.get(1)) else {
        return p.error("bad DynamicIndexList directive");
    };
    let (statics, scalable) = parse_index_entries(p, st, o)?;
    let a = dense_array(p, 64, statics);
    st.set_attr(static_var, a);
    if let Some(&scalable_var) = args.get(2) {
        let flags = scalable.into_iter().map(i64::from).collect();
        let a = dense_array(p, 1, flags);
        st.set_attr(scalable_var, a);
    }
    Ok(())
}

pub(super) fn print_index_entries(p: &mut Printer<'_>, values: &[hivm_ir::Value], statics: &[i64], scalable: &[i64]) {
    p.push("[");
    let mut next = values.iter();
    for (i, s) in statics.iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        let is_scalable = scalable.get(i).is_some_and(|f| *f != 0);
        if is_scalable {
            p.push("[");
        }
        match (*s == DYNAMIC).then(|| next.next()).flatten() {
            Some(v) => p.print_value(*v),
            None => p.push(&s.to_string()),
        }
        if is_scalable {
            p.push("]");
        }
    }
    p.push("]");
}

fn print_dynamic_index_list(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Some(&Var::Operand(o)) = args.first() else { return };
    let values = c.operand_group(ir, op, o);
    let statics = ints(ir, attr_of(ir, c, op, args.get(1)));
    let scalable = ints(ir, attr_of(ir, c, op, args.get(2)));
    print_index_entries(p, values, &statics, &scalable);
}

/// `custom<PackedOrDynamicIndexList>($packed, $values, $static)`: `*(%p)`
/// (one handle holding every size) or a dynamic index list.
pub(super) const PACKED_OR_DYNAMIC_INDEX_LIST: CustomDirective = CustomDirective {
    name: "PackedOrDynamicIndexList",
    parse: parse_packed_or_dynamic,
    print: print_packed_or_dynamic,
};

fn parse_packed_or_dynamic(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let (Some(&Var::Operand(packed)), Some(&Var::Operand(values)), Some(&static_var)) =
        (args.first(), args.get(1), args.get(2))
    else {
        return p.error("bad PackedOrDynamicIndexList directive");
    };
    if p.consume_if(Tok::Star) {
        p.expect(Tok::LParen, "'('")?;
        let u = p.parse_operand()?;
        p.expect(Tok::RParen, "')'")?;
        st.operands[packed].push(u);
        let a = dense_array(p, 64, Vec::new());
        st.set_attr(static_var, a);
        return Ok(());
    }
    let (statics, _) = parse_index_entries(p, st, values)?;
    let a = dense_array(p, 64, statics);
    st.set_attr(static_var, a);
    Ok(())
}

fn print_packed_or_dynamic(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let (Some(&Var::Operand(packed)), Some(&Var::Operand(values))) = (args.first(), args.get(1)) else { return };
    if let Some(v) = c.operand_group(ir, op, packed).first() {
        p.push("*(");
        p.print_value(*v);
        p.push(")");
        return;
    }
    let statics = ints(ir, attr_of(ir, c, op, args.get(2)));
    print_index_entries(p, c.operand_group(ir, op, values), &statics, &[]);
}

/// `custom<TransformMatchDims>($raw_position_list, $is_inverted, $is_all)`:
/// `all`, `except(1, 2)` or `0, 1`.
pub(super) const TRANSFORM_MATCH_DIMS: CustomDirective =
    CustomDirective { name: "TransformMatchDims", parse: parse_match_dims, print: print_match_dims };

fn parse_match_dims(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let (Some(&list), Some(&inverted), Some(&all)) = (args.first(), args.get(1), args.get(2)) else {
        return p.error("bad TransformMatchDims directive");
    };
    if p.parse_optional_keyword("all") {
        let a = dense_array(p, 64, Vec::new());
        st.set_attr(list, a);
        let u = p.ir.unit_attr();
        st.set_attr(all, u);
        return Ok(());
    }
    let is_inverted = p.parse_optional_keyword("except");
    if is_inverted {
        p.expect(Tok::LParen, "'('")?;
        let u = p.ir.unit_attr();
        st.set_attr(inverted, u);
    }
    let mut values = Vec::new();
    loop {
        let pos = p.pos();
        let v = p.parse_integer("integer value")?;
        match i64::try_from(v) {
            Ok(v) => values.push(v),
            Err(_) => return p.error_at(pos, "integer value too large"),
        }
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    let a = dense_array(p, 64, values);
    st.set_attr(list, a);
    if is_inverted {
        p.expect(Tok::RParen, "')'")?;
    }
    Ok(())
}

fn print_match_dims(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    if attr_of(ir, c, op, args.get(2)).is_some() {
        p.push("all");
        return;
    }
    let inverted = attr_of(ir, c, op, args.get(1)).is_some();
    if inverted {
        p.push("except(");
    }
    let list: Vec<String> = ints(ir, attr_of(ir, c, op, args.first())).iter().map(i64::to_string).collect();
    p.push(&list.join(", "));
    if inverted {
        p.push(")");
    }
}

/// `custom<SemiFunctionType>($operand, $result)`: the types as
/// `(T) -> R`.
pub(super) const SEMI_FUNCTION_TYPE: CustomDirective =
    CustomDirective { name: "SemiFunctionType", parse: parse_semi_function_type, print: print_semi_function_type };

fn parse_semi_function_type(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let (Some(&Var::Operand(o)), Some(&Var::Result(r))) = (args.first(), args.get(1)) else {
        return p.error("bad SemiFunctionType directive");
    };
    let paren = p.consume_if(Tok::LParen);
    let t = p.parse_type()?;
    st.operand_types[o] = vec![t];
    if !paren {
        // MLIR leaves the result type unset, which the op cannot have.
        return p.error("expected '(' before the operand type");
    }
    p.expect(Tok::RParen, "')'")?;
    p.expect(Tok::Arrow, "'->'")?;
    let t = p.parse_type()?;
    st.result_types[r] = vec![t];
    Ok(())
}

fn print_semi_function_type(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let (Some(&Var::Operand(o)), Some(&Var::Result(r))) = (args.first(), args.get(1)) else { return };
    p.push("(");
    p.print_value_types(c.operand_group(ir, op, o));
    p.push(") -> ");
    p.print_value_types(c.result_group(ir, op, r));
}

/// `custom<ApplyRegisteredPassOptions>($options, $dynamic_options)`:
/// `{"name" = value, "other" = %param}`, a dictionary whose values are
/// attributes or parameter handles (stored as their operand index).
pub(super) const APPLY_REGISTERED_PASS_OPTIONS: CustomDirective =
    CustomDirective { name: "ApplyRegisteredPassOptions", parse: parse_pass_options, print: print_pass_options };

fn parse_pass_options(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let (Some(&options), Some(&Var::Operand(dynamic))) = (args.first(), args.get(1)) else {
        return p.error("bad ApplyRegisteredPassOptions directive");
    };
    let mut entries: Vec<(hivm_ir::attrs::Sym, Attribute)> = Vec::new();
    p.parse_comma_list(Some((Tok::LBrace, Tok::RBrace)), "'{'", &mut |p| {
        let pos = p.pos();
        let key = if p.is(Tok::BareIdent) {
            p.parse_keyword("option name")?.to_string()
        } else {
            p.parse_utf8_string("option name")?
        };
        p.expect(Tok::Equal, "'='")?;
        let value = if p.is(Tok::PercentIdent) {
            // A parameter: the value is the index of its operand.
            let u = p.parse_operand()?;
            let index = st.operands[dynamic].len();
            st.operands[dynamic].push(u);
            let d = p.ir.sym("transform");
            p.ir.attr(AttrData::Opaque { dialect: d, body: format!("param_operand<index = {index} : i64>") })
        } else {
            p.parse_attribute(None)?
        };
        let k = p.ir.sym(&key);
        if entries.iter().any(|(x, _)| *x == k) {
            return p.error_at(pos, format!("duplicate keys found in options: {key}"));
        }
        entries.push((k, value));
        Ok(())
    })?;
    let d = p.ir.dict_attr(entries);
    st.set_attr(options, d);
    Ok(())
}

fn print_pass_options(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Some(Var::Operand(dynamic)) = args.get(1) else { return };
    let dynamic = c.operand_group(ir, op, *dynamic);
    let Some(d) = attr_of(ir, c, op, args.first()) else {
        p.push("{}");
        return;
    };
    p.push("{");
    for (i, (k, v)) in ir.dict_entries(d).iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        p.push(&quoted(ir.sym_str(*k)));
        p.push(" = ");
        match param_operand_index(ir, *v).and_then(|i| dynamic.get(i)) {
            Some(v) => p.print_value(*v),
            None => p.print_attr(*v, Elide::Never),
        }
    }
    p.push("}");
}

/// The operand index a `#transform.param_operand<index = N>` names.
pub(super) fn param_operand_index(ir: &Ir, a: Attribute) -> Option<usize> {
    match ir.attr_data(a) {
        AttrData::Opaque { dialect, body } if ir.sym_str(*dialect) == "transform" => body
            .strip_prefix("param_operand<")
            .and_then(|b| b.strip_suffix('>'))
            .and_then(|b| b.split('=').nth(1))
            .and_then(|n| n.split(':').next())
            .and_then(|n| n.trim().parse().ok()),
        _ => None,
    }
}

/// A string as MLIR prints one: printable ASCII as is but for `"` and the
/// backslash, other bytes as a backslash and two hex digits.
pub(super) fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\{b:02X}"));
        }
    }
    out.push('"');
    out
}
