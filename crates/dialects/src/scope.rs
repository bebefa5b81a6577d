//! AscendNPU-IR's `scope` dialect: `scope.scope`, a region run once in place
//! (kept apart from its surroundings by passes), and `scope.return`.

use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, Type, TypeData};

/// `scope.scope : () -> (types) { ... } attrs`.
fn parse_scope(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let ft = p.parse_colon_type()?;
    let TypeData::Function { results, .. } = p.ir.type_data(ft).clone() else {
        return p.error_at(pos, "expected function type");
    };
    r.result_types = results;
    let loc = r.loc;
    let body = p.parse_region_with_terminator(&[], false, Some("scope.return"), loc)?;
    r.regions.push(body);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_scope(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" : ");
    p.print_functional_type(op);
    p.push(" ");
    p.print_region(ir.regions(op)[0], false, true);
    p.print_optional_attr_dict(op, &[]);
}

/// `scope.return` has the shared terminator syntax (`util`).
fn verify_return(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(parent) = ir.parent_op(op) else { return Ok(()) };
    if ir.op_name(parent) != "scope.scope" {
        return Err("expects parent op 'scope.scope'".into());
    }
    let want: Vec<Type> = ir.results(parent).iter().map(|v| ir.value_type(*v)).collect();
    let got: Vec<Type> = ir.operands(op).iter().map(|v| ir.value_type(*v)).collect();
    if want != got {
        return Err("the types of the returned values must match the results of the enclosing scope".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "scope",
        vec![
            OpDef::new("scope.scope")
                .arity((0, None), (0, None), 1)
                .traits(Traits::SINGLE_BLOCK)
                .inherent(&["no_inline"])
                .assembly(parse_scope, print_scope),
            OpDef::new("scope.return")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .assembly(crate::util::parse_terminator_operands, crate::util::print_terminator_operands)
                .verifier(verify_return),
        ],
    )
}
