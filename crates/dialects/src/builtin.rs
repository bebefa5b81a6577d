//! `builtin.module`.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, OpDef, OpId, Traits};

fn parse_module(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.is(Tok::AtIdent) {
        let name = p.parse_symbol_name()?;
        let k = p.ir.sym("sym_name");
        let v = p.ir.str_attr(&name);
        r.attrs.push((k, v));
    }
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    let region = p.parse_region(&[], true)?;
    if p.ir.region_blocks(region).is_empty() {
        let b = p.ir.create_block();
        p.ir.push_block(region, b);
    }
    r.regions.push(region);
    Ok(())
}

fn print_module(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(name) = ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)) {
        p.push(" ");
        p.print_symbol_name(name);
    }
    p.print_optional_attr_dict_with_keyword(op, &["sym_name"]);
    p.push(" ");
    p.print_region(ir.regions(op)[0], false, true);
}

fn verify_module(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if ir.regions(op).len() != 1 {
        return Err("requires one region".into());
    }
    let r = ir.regions(op)[0];
    if ir.region_blocks(r).len() != 1 {
        return Err("expects region #0 to have 0 or 1 blocks".into());
    }
    if !ir.block_args(ir.region_blocks(r)[0]).is_empty() {
        return Err("expects region #0 to have 0 arguments".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "builtin",
        vec![
            OpDef::new("builtin.module")
                .traits(
                    Traits::ISOLATED_FROM_ABOVE
                        | Traits::NO_TERMINATOR
                        | Traits::SYMBOL_TABLE
                        | Traits::GRAPH_REGION
                        | Traits::AFFINE_SCOPE,
                )
                .inherent(&["sym_name", "sym_visibility"])
                .assembly(parse_module, print_module)
                .verifier(verify_module)
                .default_dialect("builtin"),
            OpDef::new("builtin.unrealized_conversion_cast").assembly(parse_ucc, print_ucc),
        ],
    )
}

fn parse_ucc(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    let tys = if ops.is_empty() { Vec::new() } else { p.parse_colon_type_list()? };
    let pos = p.pos();
    p.expect_keyword("to")?;
    let v = p.resolve_operands(&ops, &tys, pos)?;
    r.operands = v;
    r.result_types = p.parse_type_list_no_parens()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_ucc(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if !ir.operands(op).is_empty() {
        p.push(" ");
        p.print_values(ir.operands(op));
        p.push(" : ");
        p.print_operand_types(op);
    }
    p.push(" to ");
    p.print_value_types(ir.results(op));
    p.print_optional_attr_dict(op, &[]);
}
