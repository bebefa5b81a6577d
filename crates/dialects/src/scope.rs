//! AscendNPU-IR's `scope` dialect: `scope.scope`, a region run once in place
//! (kept apart from its surroundings by passes), and `scope.return`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, TypeData};

use crate::util::type_str;

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

/// `scope.return`'s `HasParent<ScopeOp>`, which ODS checks before the
/// terminator trait (so a stray `scope.return` is reported for its parent).
fn verify_return_parent(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    match ir.parent_op(op) {
        Some(parent) if ir.op_name(parent) == "scope.scope" => Ok(()),
        _ => Err("expects parent op 'scope.scope'".into()),
    }
}

/// `SizedRegion<1>`: an empty region fails the region constraint (more
/// than one block is the `SingleBlock` trait's error, reported first).
fn verify_scope_invariants(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.regions(op).first().is_some_and(|r| ir.region_blocks(*r).is_empty()) {
        return Err("region #0 ('region') failed to verify constraint: region with 1 blocks".into());
    }
    Ok(())
}

/// `NoRegionArguments`.
fn verify_scope(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let region = ir.regions(op)[0];
    if ir.region_blocks(region).first().is_some_and(|b| !ir.block_args(*b).is_empty()) {
        return Err("region #0 should have no arguments".into());
    }
    Ok(())
}

/// `RegionBranchOpInterface`'s edge check from the region to the parent's
/// results, once the nested ops are verified, in the words of upstream's
/// MLIR (its LLVM 19: "source has N operands", with the leading space of
/// `emitOpError(" region ...")`).
fn verify_scope_edges(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(block) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()) else { return Ok(()) };
    let Some(term) = ir.terminator(*block).filter(|t| ir.is_op(*t, "scope.return")) else { return Ok(()) };
    let sources = ir.operands(term);
    let targets = ir.results(op);
    if sources.len() != targets.len() {
        return Err(format!(
            " region control flow edge from Region #0 to parent results: source has {} operands, but target \
             successor needs {}",
            sources.len(),
            targets.len()
        )
        .into());
    }
    for (i, (s, t)) in sources.iter().zip(targets).enumerate() {
        let (st, tt) = (ir.value_type(*s), ir.value_type(*t));
        if st != tt {
            return Err(format!(
                " along control flow edge from Region #0 to parent results: source type #{i} '{}' should match \
                 input type #{i} '{}'",
                type_str(ir, st),
                type_str(ir, tt)
            )
            .into());
        }
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
                .assembly(parse_scope, print_scope)
                .invariants(verify_scope_invariants)
                .verifier(verify_scope)
                .region_verifier(verify_scope_edges),
            OpDef::new("scope.return")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .assembly(crate::util::parse_terminator_operands, crate::util::print_terminator_operands)
                .invariants(verify_return_parent),
        ],
    )
}
