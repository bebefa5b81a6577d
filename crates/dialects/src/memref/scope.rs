//! `memref.alloca_scope`: a region whose allocas are freed when it exits,
//! with upstream's syntax (`memref.alloca_scope  -> (T) { ... }`; the
//! terminator is implied when nothing is returned).

use hivm_ir::opspec::{OpSpec, var};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{OpDef, OpId, Traits};

const RETURN: &str = "memref.alloca_scope.return";

fn parse_scope(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.consume_if(hivm_ir::lexer::Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let region = p.parse_region_with_terminator(&[], false, Some(RETURN), r.loc)?;
    r.regions.push(region);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_scope(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    // Upstream's printer writes a space, then ` -> (...)` or a second space.
    p.push(" ");
    let results = ir.results(op);
    if !results.is_empty() {
        p.push(" -> (");
        p.print_value_types(results);
        p.push(")");
    }
    p.push(" ");
    if let Some(&r) = ir.regions(op).first() {
        p.print_region(r, false, !results.is_empty());
    }
    p.print_optional_attr_dict(op, &[]);
}

const SCOPE_RETURN: OpSpec = OpSpec {
    name: RETURN,
    operands: &[var("results")],
    format: "attr-dict ($results^ `:` type($results))?",
    traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE).with(Traits::PURE),
    ..OpSpec::EMPTY
};

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("memref.alloca_scope")
            .traits(Traits::SINGLE_BLOCK)
            .implicit_terminator(RETURN)
            .assembly(parse_scope, print_scope),
        SCOPE_RETURN.def(),
    ]
}
