//! `hivm-graph-sync-solver`: upstream's GraphSyncSolver (GSS), which injects
//! `set_flag` / `wait_flag` / `pipe_barrier` between HIVM ops on different
//! pipes and fills `custom_macro` sync slots (spec sync-solver.md).
//!
//! `tree` builds the solver's view of a function, `solver` chooses syncs
//! (v1's pair order; v2 gives the same result upstream and shares it here),
//! `colour` assigns event ids, `emit` turns chosen pairs into per-node
//! syncs and `codegen` writes them into the IR; `unit_flag` is the
//! matmul/fixpipe handover of `enable-unit-flag`.

pub mod codegen;
pub mod colour;
pub mod cover;
pub mod emit;
pub mod events;
pub mod far;
pub mod memory;
pub mod pipes;
pub mod prune;
pub mod slots;
pub mod solver;
pub mod tree;
pub mod unit_flag;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct GraphSyncSolver {
    unit_flag: bool,
}

/// The pass's options as upstream spells them.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `solver-version`: 1 or 2 (v2 shares v1's engine).
    pub version: u8,
    pub unit_flag: bool,
    /// `enable-tester-mode`: run the randomized tester instead of solving.
    pub tester_mode: bool,
    /// `sync-tester-options`: runs, seed, ops, pointers, multi-buffer,
    /// cross-core[, performance-only].
    pub tester_options: Vec<i64>,
}

impl Options {
    pub fn parse(options: &str) -> Result<Options, String> {
        let mut o = Options { version: 1, ..Options::default() };
        let flag = |k: &str, v: &str| match v {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(format!("option '{k}' of hivm-graph-sync-solver expects true or false, not '{v}'")),
        };
        for kv in options.split_whitespace() {
            let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
            let v = v.trim_matches(|c| c == '"' || c == '\'');
            match k {
                "solver-version" => {
                    o.version = match v.to_ascii_lowercase().as_str() {
                        "" | "v1" => 1,
                        "v2" => 2,
                        _ => return Err(format!("unknown solver-version '{v}' (expected v1 or v2)")),
                    }
                }
                "enable-subview-conflict-refinement" | "ignore-workspace-func-args" => {
                    flag(k, v)?;
                }
                "enable-unit-flag" => o.unit_flag = flag(k, v)?,
                "enable-tester-mode" => o.tester_mode = flag(k, v)?,
                "sync-tester-options" => {
                    o.tester_options =
                        v.split(',').map(|n| n.trim().parse::<i64>()).collect::<Result<_, _>>().map_err(|_| {
                            format!("sync-tester-options expects integers separated by commas, not '{v}'")
                        })?;
                }
                _ => return Err(format!("option '{kv}' of hivm-graph-sync-solver is not supported")),
            }
        }
        Ok(o)
    }
}

impl GraphSyncSolver {
    pub fn from_options(options: &str) -> Result<GraphSyncSolver, String> {
        let o = Options::parse(options)?;
        if o.tester_mode {
            // The tester runs kernels in the CPU twin, which hivm-opt links.
            return Err("enable-tester-mode needs the CPU twin's tester: run it with hivm-opt".into());
        }
        Ok(GraphSyncSolver { unit_flag: o.unit_flag })
    }
}

fn function_kind(ir: &Ir, f: OpId) -> Option<&str> {
    ir.get_attr(f, "hacc.function_kind").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
}

fn solve_function(ir: &mut Ir, func: OpId, unit_flag: bool) -> Result<(), Diagnostic> {
    let err = |ir: &Ir, op: OpId, m: String| Diagnostic::error(ir.loc(op), m);
    let target = hivm_dialects::hacc::module_target(ir, func);
    let regbase = target.as_deref().is_some_and(hivm_dialects::hacc::is_regbase);
    let slots = slots::MacroSlots::collect(ir, func);
    if let Some((op, m)) = &slots.conflict {
        return Err(err(ir, *op, m.clone()));
    }
    let (tree, maps, flags) = {
        let ir_ref: &Ir = ir;
        let attempt = |reserve_slots: bool| -> Result<_, Diagnostic> {
            let tree = tree::Tree::build(ir_ref, func).map_err(|u| err(ir_ref, u.op, u.msg))?;
            let mut s = solver::Solver::new(ir_ref, tree, slots.clone(), regbase);
            s.unit_flag = unit_flag;
            s.reserve_slots = reserve_slots;
            s.solve().map_err(|m| err(ir_ref, func, m))?;
            let collected = match s.collected.take() {
                Some(c) => c,
                None => emit::collect(&mut s),
            };
            Ok((s, collected))
        };
        let (mut s, mut collected) = attempt(false)?;
        // Beyond upstream, which fails here: when a macro's slot finds no
        // free id, solve again leaving each slot room, so that the solver
        // widens its own syncs around the macro instead.
        if matches!(&collected, Err((_, m)) if m == emit::NO_SLOT_ID) {
            (s, collected) = attempt(true)?;
        }
        let maps = collected.map_err(|(op, m)| err(ir_ref, op.unwrap_or(func), m))?;
        let flags = s.unit_flags();
        (s.tree, maps, flags)
    };
    let device_entry = ir.has_attr(func, "hacc.entry") && function_kind(ir, func) == Some("DEVICE");
    codegen::CodeGen::new(&tree, func, regbase).generate(ir, maps, &flags, device_entry);
    Ok(())
}

impl Pass for GraphSyncSolver {
    fn name(&self) -> &str {
        "hivm-graph-sync-solver"
    }

    fn display_name(&self) -> &str {
        "GraphSyncSolver"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for f in super::defined_functions(ir, root) {
            if function_kind(ir, f) == Some("HOST") || ir.has_attr(f, "hivm.vector_function") {
                continue;
            }
            solve_function(ir, f, self.unit_flag)?;
        }
        Ok(())
    }
}
