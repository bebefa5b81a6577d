//! Pass pipeline execution for the driver.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId};

pub fn run_pipeline(ir: &mut Ir, module: OpId, passes: &[String], verify_each: bool) -> Result<(), Diagnostic> {
    if passes.is_empty() {
        return Ok(());
    }
    let registry = hivm_transforms::pass_registry();
    let mut pm =
        hivm_ir::pass::PassManager::from_cli(&registry, passes).map_err(|m| Diagnostic::error(ir.unknown_loc(), m))?;
    pm.run(ir, module, verify_each)
}
