//! `hivm-graph-sync-solver{enable-tester-mode=true sync-tester-options=...}`:
//! upstream's tester mode, here backed by the CPU twin's tester
//! (`hivm_twin::tester`), which the transforms crate cannot reach. Like
//! upstream it prints its options, then `succeeded` or `failed`; a failure
//! also names the seed, the problem and the kernel, and fails the pass.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};
use hivm_transforms::hivm::gss::{GraphSyncSolver, Options};
use hivm_twin::tester::{self, kernels::Shape};

pub struct Tester {
    options: Vec<i64>,
    version: u8,
}

/// The solver's constructor for hivm-opt: the transforms one, or the tester.
pub fn gss_ctor(options: &str) -> Result<Box<dyn Pass>, String> {
    let o = Options::parse(options)?;
    if !o.tester_mode {
        return Ok(Box::new(GraphSyncSolver::from_options(options)?));
    }
    if o.unit_flag {
        return Err(
            "enable-unit-flag cannot be tested in tester mode: its kernels run with the solver's default options"
                .into(),
        );
    }
    if !(6..=7).contains(&o.tester_options.len()) {
        return Err(format!(
            "sync-tester-options takes 6 or 7 integers (runs, seed, ops, pointers, multi-buffer, cross-core[, \
             performance-only]), not {}",
            o.tester_options.len()
        ));
    }
    if o.tester_options[..4].iter().any(|n| *n < 0) {
        return Err("sync-tester-options: runs, seed, ops and pointers cannot be negative".into());
    }
    Ok(Box::new(Tester { options: o.tester_options, version: o.version }))
}

impl Pass for Tester {
    fn name(&self) -> &str {
        "hivm-graph-sync-solver"
    }

    fn display_name(&self) -> &str {
        "GraphSyncSolver"
    }

    fn run(&mut self, ir: &mut Ir, _root: OpId) -> Result<(), Diagnostic> {
        let o = &self.options;
        let (runs, seed, ops, ptrs) = (o[0] as u64, o[1] as u64, o[2] as usize, o[3] as usize);
        let performance_only = o.get(6).is_some_and(|p| *p != 0);
        println!(
            "tester-options: seed({seed}) num_ops({ops}) num_ptrs({ptrs}) multibuffer({}) enableCrossCoreMode({}) \
             performanceOnly({}) solverVersion({})",
            o[4], o[5], performance_only as u8, self.version
        );
        // The generated kernels are single-core kernels over UB buffers,
        // with double-buffered tiles when multi-buffer is asked for, and
        // with cross-core, cube matmul steps too (over L1 and L0C, on the
        // same core: the solver under test places intra-core flags only;
        // cross-core handshakes are the mix kernels' own, checked by the
        // twin's mix runs).
        let shape =
            Shape { ops: ops.max(1), buffers: ptrs.max(1), macros: false, multi_buffer: o[4] != 0, cube: o[5] != 0 };
        let result = if performance_only {
            (seed..seed + runs).try_for_each(|s| tester::solve_only(s, shape))
        } else {
            tester::sweep(seed, runs, shape, &[]).map(|_| ())
        };
        match result {
            Ok(()) => {
                println!("succeeded");
                Ok(())
            }
            Err(f) => {
                println!("failed");
                Err(Diagnostic::error(
                    ir.unknown_loc(),
                    format!("sync tester: kernel of seed {}: {}\n{}", f.seed, f.message, f.kernel),
                ))
            }
        }
    }
}
