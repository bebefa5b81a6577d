//! The sync-solver tester, in the spirit of upstream's SyncTester (the
//! `enable-tester-mode` of `hivm-graph-sync-solver`): random kernels written
//! without synchronisation go through the solver and then run in the twin,
//! whose checker must see no race, hang or leftover flag, and whose numbers
//! must equal those of the same kernel with a full barrier after every op.
//! Upstream checks the solver's abstract output with a pipe simulation; here
//! the real output runs, so codegen and the twin are under test too.

pub mod kernels;
pub mod plan;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::value::Elem;
use crate::{ArgSpec, RunOptions};

/// A kernel the solver got wrong (or, for a tester bug, whose reference
/// itself fails).
#[derive(Debug)]
pub struct Failure {
    pub seed: u64,
    pub message: String,
    /// The bare kernel, to reproduce with `hivm-run --sync-solver`.
    pub kernel: String,
}

/// Runs kernel `seed` of `shape` both ways. `impls` holds the C++ file that
/// defines the macros when `shape.macros` is on.
pub fn check(seed: u64, shape: kernels::Shape, impls: &[PathBuf]) -> Result<(), Failure> {
    let k = kernels::kernel(seed, shape);
    let flag = seed.is_multiple_of(2);
    let fail = |message: String, kernel: &str| Failure { seed, message, kernel: kernel.to_string() };
    let expected = run(&k.reference, seed, flag, false, impls)
        .map_err(|e| fail(format!("the reference kernel itself fails (a tester bug):\n{e}"), &k.reference))?;
    match run(&k.bare, seed, flag, true, impls) {
        Ok(got) if got == expected => Ok(()),
        Ok(_) => Err(fail("different numbers after the solver than with a barrier after every op".into(), &k.bare)),
        Err(e) => Err(fail(e, &k.bare)),
    }
}

/// Checks `count` kernels from seed `first`, stopping at the first failure;
/// returns how many passed.
pub fn sweep(first: u64, count: u64, shape: kernels::Shape, impls: &[PathBuf]) -> Result<u64, Failure> {
    for seed in first..first + count {
        check(seed, shape, impls)?;
    }
    Ok(count)
}

/// Runs one form of kernel `seed` (with the solver first if `solver`):
/// the GM arguments' final bytes, or every problem the twin found.
pub fn run(text: &str, seed: u64, flag: bool, solver: bool, impls: &[PathBuf]) -> Result<Vec<Vec<u8>>, String> {
    let mut args: Vec<ArgSpec> =
        (0..kernels::GM_ARGS as u64).map(|i| ArgSpec::Array(Elem::F32, vec![64], kernels::gm_data(seed, i))).collect();
    args.push(ArgSpec::Literal(if flag { "1" } else { "0" }.into()));
    let opts = RunOptions {
        entry: None,
        impls: impls.to_vec(),
        args,
        blocks: 1,
        timeout: Duration::from_secs(20),
        progress: false,
        max_ops: 1_000_000,
        trace: false,
        sync_solver: solver,
        part_alone: false,
    };
    let out = crate::run_source(text, "tester.mlir", Path::new("."), &opts);
    let mut problems = String::new();
    if let Some(e) = &out.error {
        problems.push_str(&out.render(e));
    }
    // Warnings are not errors of the solver's: a matmul no sync landed on
    // gets no ids from the solver (as upstream's), so its library sets the
    // M -> MTE1 ids the solver's bracket has already set.
    for (b, r) in out.reports.iter().filter(|(_, r)| r.class != crate::sync::Class::Warning) {
        problems.push_str(&out.render(&out.report_diagnostic(*b, r, 1)));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(out.args.into_iter().flatten().map(|(_, _, bytes)| bytes).collect())
}

/// Only solves kernel `seed` (upstream's performance-only mode): parse, then
/// the solver, no run.
pub fn solve_only(seed: u64, shape: kernels::Shape) -> Result<(), Failure> {
    let k = kernels::kernel(seed, shape);
    let fail = |message: String| Failure { seed, message, kernel: k.bare.clone() };
    let mut ir = hivm_ir::Ir::new(std::sync::Arc::new(hivm_dialects::registry()));
    let module = hivm_ir::parser::Parser::new(&mut ir, &k.bare, "tester.mlir", 0)
        .parse_module()
        .map_err(|e| fail(format!("the generated kernel does not parse (a tester bug): {e:?}")))?;
    let reg = hivm_transforms::pass_registry();
    let mut pm = hivm_ir::pass::PassManager::from_cli(&reg, &["hivm-graph-sync-solver".to_string()]).map_err(fail)?;
    pm.run(&mut ir, module, true).map_err(|d| fail(d.message.clone()))?;
    Ok(())
}
