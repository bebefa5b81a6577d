//! Pass pipeline execution for the driver.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId};

/// Runs the driver's pipeline; per-pass wall times are added to `timings`.
/// Returns the module's id afterwards (the IR is compacted between passes).
pub fn run_pipeline(
    ir: &mut Ir,
    module: OpId,
    opts: &crate::opt::Options,
    timings: &mut Vec<(String, f64)>,
) -> Result<OpId, Diagnostic> {
    if opts.passes.is_empty() {
        return Ok(module);
    }
    let registry = registry();
    let mut pm = hivm_ir::pass::PassManager::from_cli(&registry, &opts.passes)
        .map_err(|m| Diagnostic::error(ir.unknown_loc(), m))?;
    pm.print_before_all = opts.print_ir_before_all;
    pm.print_after_all = opts.print_ir_after_all;
    let r = pm.run_compacting(ir, module, opts.verify_each);
    timings.append(&mut pm.timings);
    // IR dumps go to stderr as the pipeline runs, before any diagnostics.
    eprint!("{}", pm.dumps);
    r
}

/// The passes hivm-opt offers: the transforms crate's, with the sync solver's
/// tester mode wired to the CPU twin.
pub fn registry() -> hivm_ir::pass::PassRegistry {
    let mut r = hivm_transforms::pass_registry();
    r.register(
        "hivm-graph-sync-solver",
        "Inject set_flag/wait_flag/pipe_barrier between pipes (solver-version=v1|v2, enable-tester-mode)",
        crate::tester::gss_ctor,
    );
    r
}
