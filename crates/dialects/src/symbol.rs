//! AscendNPU-IR's `symbol` dialect: `symbolic_int` names a bounded dynamic
//! size (`%s0 = symbol.symbolic_int @s0 {max_val = 8, min_val = 1} : index`,
//! optionally an affine expression of other sizes) and
//! `bind_symbolic_shape` ties a shaped value's dimensions to such sizes.
//! Upstream writes both by hand; so do we, with its quirks (the affine map
//! is always printed inline, an empty one not at all).

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Dialect, Ir, OpDef, OpId, Traits, Value};

use crate::util::push_attr;

/// The affine map stored under `name`, if any.
fn map_of<'a>(ir: &'a Ir, op: OpId, name: &str) -> Option<&'a hivm_ir::affine::AffineMap> {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::AffineMap(m)) => Some(m),
        _ => None,
    }
}

/// `[%a, %b], affine_map<...>`: the symbol names and their map (also
/// torch's `bind_symbolic_shape`, whose symbols are `!torch.int`).
pub(crate) fn parse_symbol_names_and_map(
    p: &mut Parser<'_>,
) -> PResult<(Vec<hivm_ir::parser::UnresolvedOperand>, hivm_ir::Attribute)> {
    let mut symbols = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        symbols.push(p.parse_operand()?);
        Ok(())
    })?;
    p.expect(Tok::Comma, "','")?;
    let pos = p.pos();
    let map = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(map), AttrData::AffineMap(_)) {
        return p.error_at(pos, "invalid kind of attribute specified");
    }
    Ok((symbols, map))
}

/// `[%a, %b], affine_map<...>`: the symbols and their map.
fn parse_symbols_and_map(p: &mut Parser<'_>, r: &mut OpParseResult, name: &str) -> PResult<()> {
    let (symbols, map) = parse_symbol_names_and_map(p)?;
    push_attr(p, r, name, map);
    let index = p.ir.index_type();
    for s in &symbols {
        let v = p.resolve_operand(s, index)?;
        r.operands.push(v);
    }
    Ok(())
}

fn print_symbols_and_map(p: &mut Printer<'_>, symbols: &[Value], map: &hivm_ir::affine::AffineMap) {
    p.push(" [");
    p.print_values(symbols);
    let mut text = String::new();
    map.print(&mut text);
    p.push(&format!("], affine_map<{text}>"));
}

fn parse_symbolic_int(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    if !p.is(Tok::AtIdent) {
        return p.error("expected valid '@'-identifier for symbol name");
    }
    let sym = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(sym), AttrData::SymbolRef { .. }) {
        return p.error_at(pos, "expected valid '@'-identifier for symbol name");
    }
    push_attr(p, r, "symbol_name", sym);
    if p.is(Tok::LSquare) {
        parse_symbols_and_map(p, r, "int_expressions")?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    r.result_types.push(t);
    Ok(())
}

fn print_symbolic_int(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(s) = ir.get_attr(op, "symbol_name") {
        p.push(" ");
        p.print_attr(s, hivm_ir::printer::Elide::Never);
    }
    if let Some(m) = map_of(ir, op, "int_expressions")
        && (m.num_dims > 0 || m.num_symbols > 0 || !m.results.is_empty())
    {
        print_symbols_and_map(p, ir.operands(op), m);
    }
    p.print_optional_attr_dict(op, &["int_expressions", "symbol_name"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

/// The result is named after the symbol (`%s0`).
fn symbolic_int_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let name = match ir.get_attr(op, "symbol_name").map(|a| ir.attr_data(a)) {
        Some(AttrData::SymbolRef { root, .. }) => ir.sym_str(*root).to_string(),
        _ => return,
    };
    if let Some(&r) = ir.results(op).first() {
        set(r, name);
    }
}

/// Ops that may compute an int symbol: other symbols, `tensor.dim` and
/// arith ops.
fn valid_symbol_producer(ir: &Ir, v: Value) -> bool {
    ir.defining_op(v).is_some_and(|d| {
        let n = ir.op_name(d);
        n == "symbol.symbolic_int" || n == "tensor.dim" || n.starts_with("arith.")
    })
}

fn verify_symbolic_int(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for k in ["min_val", "max_val"] {
        if ir.get_attr(op, k).and_then(|a| ir.as_int(a)).is_none() {
            return Err(format!("requires attribute '{k}'").into());
        }
    }
    if ir.operands(op).iter().any(|v| !valid_symbol_producer(ir, *v)) {
        return Err("int symbol must be produced by valid operations".into());
    }
    let Some(m) = map_of(ir, op, "int_expressions") else { return Ok(()) };
    if m.num_dims != 0 {
        return Err("the affine map should only contain symbols".into());
    }
    if ir.operands(op).len() != m.num_symbols as usize {
        return Err(format!(
            "number of int symbols {} doesn't match with affine map {}",
            ir.operands(op).len(),
            m.num_symbols
        )
        .into());
    }
    if m.results.len() > 1 {
        return Err("mapping must not produce more than one value".into());
    }
    Ok(())
}

fn parse_bind(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let operand = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    // The symbols resolve first; the bound value goes in front of them.
    parse_symbols_and_map(p, r, "shape_expressions")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let v = p.resolve_operand(&operand, t)?;
    r.operands.insert(0, v);
    Ok(())
}

fn print_bind(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.push(" ");
    p.print_value(ops[0]);
    p.push(",");
    if let Some(m) = map_of(ir, op, "shape_expressions") {
        print_symbols_and_map(p, &ops[1..], m);
    }
    p.print_optional_attr_dict(op, &["shape_expressions"]);
    p.push(" : ");
    p.print_type(ir.value_type(ops[0]));
}

fn verify_bind(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&operand) = ir.operands(op).first() else { return Err("expected an operand".into()) };
    let Some(shape) = ir.type_data(ir.value_type(operand)).shape().map(|s| s.len()) else {
        return Err("operand #0 must be shaped of any type values".into());
    };
    let Some(m) = map_of(ir, op, "shape_expressions") else {
        return Err("requires attribute 'shape_expressions'".into());
    };
    if m.results.len() != shape {
        return Err("number of results doesn't match the rank of binded operand shape".into());
    }
    if m.num_symbols as usize != ir.operands(op).len() - 1 {
        return Err("number of shape symbols doesn't match the number of symbols in the affine.map".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "symbol",
        vec![
            OpDef::new("symbol.symbolic_int")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
                .inherent(&["symbol_name", "min_val", "max_val", "int_expressions"])
                .assembly(parse_symbolic_int, print_symbolic_int)
                .verifier(verify_symbolic_int)
                .names(symbolic_int_name),
            OpDef::new("symbol.bind_symbolic_shape")
                .arity((1, None), (0, Some(0)), 0)
                .traits(Traits::ZERO_REGIONS)
                .inherent(&["shape_expressions"])
                .assembly(parse_bind, print_bind)
                .verifier(verify_bind),
        ],
    )
}
