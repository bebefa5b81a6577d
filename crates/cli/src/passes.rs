//! Pass pipeline execution for the driver.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId};

pub fn run_pipeline(ir: &mut Ir, module: OpId, opts: &crate::opt::Options) -> Result<(), Diagnostic> {
    if opts.passes.is_empty() {
        return Ok(());
    }
    let registry = hivm_transforms::pass_registry();
    let mut pm = hivm_ir::pass::PassManager::from_cli(&registry, &opts.passes)
        .map_err(|m| Diagnostic::error(ir.unknown_loc(), m))?;
    pm.print_before_all = opts.print_ir_before_all;
    pm.print_after_all = opts.print_ir_after_all;
    let r = pm.run(ir, module, opts.verify_each);
    // IR dumps go to stderr as the pipeline runs, before any diagnostics.
    eprint!("{}", pm.dumps);
    r
}
