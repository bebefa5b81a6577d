//! Buffers a loop allocates and carries into later iterations.
//!
//! `hivm-plan-memory` gives each `memref.alloc` one address, so every run
//! of an alloc inside a loop makes a new instance at the same bytes. That
//! is sound only while no earlier instance is still needed when a later
//! one is written. A loop carries an instance on through its iteration
//! values (`iter_args`, a `scf.while`'s block arguments); the earlier
//! instance it holds must then be done with before the body writes the
//! alloc again. It is not when the body uses the carried value after that
//! write (at the write itself only elementwise, element for element), in
//! a nested loop around that write, or passes it on to the next iteration
//! (a rotation through several iteration values: that iteration writes
//! the alloc over it again).
//!
//! Upstream's PlanMemory only merges such values into one alias set for
//! liveness and still gives the alloc one address, so the instances share
//! bytes there too. Separate addresses per instance would take a
//! multi-buffer rotation the later passes and the twin select by the
//! iteration counter; until that is planned, such a loop is a located
//! error here, never a plan that silently loses the earlier instance.

use rustc_hash::{FxHashMap, FxHashSet};

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{BlockId, Ir, OpId, Value};

use super::root_alloc;

fn is_loop(ir: &Ir, op: OpId) -> bool {
    matches!(ir.op_name(op), "scf.for" | "scf.while")
}

/// Whether `op` sits (at any depth) inside `outer`.
fn inside(ir: &Ir, outer: OpId, mut op: OpId) -> bool {
    while let Some(p) = ir.parent_op(op) {
        if p == outer {
            return true;
        }
        op = p;
    }
    false
}

fn first_block(ir: &Ir, op: OpId, region: usize) -> Option<BlockId> {
    ir.regions(op).get(region).and_then(|r| ir.region_blocks(*r).first()).copied()
}

/// The values among `ops` that may hold what `seeds` hold: views of them,
/// results of ops not known here, and what region ops pass on of them
/// (yields to results and to loop iteration values, `scf.condition` to a
/// `scf.while`'s after block). A loop in `closed` does not pass a value
/// into its iterations or results through its inits (the instance it
/// makes itself is checked at that loop).
pub(super) fn flow(ir: &Ir, ops: &[OpId], seeds: &[Value], closed: &dyn Fn(OpId) -> bool) -> FxHashSet<Value> {
    let mut set: FxHashSet<Value> = seeds.iter().copied().collect();
    loop {
        let before = set.len();
        for &x in ops {
            let hit: Vec<usize> =
                ir.operands(x).iter().enumerate().filter(|(_, v)| set.contains(*v)).map(|(i, _)| i).collect();
            if hit.is_empty() {
                continue;
            }
            let name = ir.op_name(x);
            let memref = |v: &Value| ir.type_data(ir.value_type(*v)).is_memref();
            match name {
                "scf.yield" => {
                    let Some(p) = ir.parent_op(x) else { continue };
                    for i in hit {
                        if ir.is_op(p, "scf.while") {
                            // The after block's yield starts the next
                            // iteration's before block.
                            set.extend(first_block(ir, p, 0).and_then(|b| ir.block_args(b).get(i).copied()));
                            continue;
                        }
                        set.extend(ir.results(p).get(i).copied());
                        if ir.is_op(p, "scf.for") {
                            set.extend(first_block(ir, p, 0).and_then(|b| ir.block_args(b).get(i + 1).copied()));
                        }
                    }
                }
                "scf.condition" => {
                    let Some(p) = ir.parent_op(x) else { continue };
                    for i in hit.into_iter().filter(|i| *i >= 1) {
                        set.extend(ir.results(p).get(i - 1).copied());
                        set.extend(first_block(ir, p, 1).and_then(|b| ir.block_args(b).get(i - 1).copied()));
                    }
                }
                "scf.for" if !closed(x) => {
                    for i in hit.into_iter().filter(|i| *i >= 3) {
                        set.extend(ir.results(x).get(i - 3).copied());
                        set.extend(first_block(ir, x, 0).and_then(|b| ir.block_args(b).get(i - 2).copied()));
                    }
                }
                "scf.while" if !closed(x) => {
                    for i in hit {
                        set.extend(first_block(ir, x, 0).and_then(|b| ir.block_args(b).get(i).copied()));
                    }
                }
                _ if ir.regions(x).is_empty() => set.extend(ir.results(x).iter().copied().filter(memref)),
                _ => {}
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Refuses a loop around `alloc` that still needs an earlier instance of
/// it when the body writes the next one (see the module comment).
pub(super) fn check(ir: &Ir, alloc: OpId, order: &FxHashMap<OpId, usize>) -> Result<(), Diagnostic> {
    let mut lp = ir.parent_op(alloc);
    while let Some(o) = lp {
        if is_loop(ir, o) {
            check_loop(ir, alloc, o, order)?;
        }
        lp = ir.parent_op(o);
    }
    Ok(())
}

fn check_loop(ir: &Ir, alloc: OpId, lp: OpId, order: &FxHashMap<OpId, usize>) -> Result<(), Diagnostic> {
    let mut ops = Vec::new();
    ir.walk(lp, &mut |x| {
        if x != lp {
            ops.push(x);
        }
    });
    // The first write of this iteration's instance, in program order.
    let writes_it = |x: OpId| super::plan_memory::written(ir, x).iter().any(|(v, _)| root_alloc(ir, *v) == Some(alloc));
    let Some(w) = ops.iter().copied().find(|x| writes_it(*x)) else { return Ok(()) };
    // The loop's iteration values that may hold an instance: they hold one
    // from an earlier iteration (or the loop's init).
    let reach = flow(ir, &ops, &[ir.result(alloc, 0)], &|_| false);
    let args: Vec<Value> = ir
        .regions(lp)
        .iter()
        .filter_map(|r| ir.region_blocks(*r).first())
        .flat_map(|b| ir.block_args(*b).iter().copied())
        .filter(|v| reach.contains(v))
        .collect();
    if args.is_empty() {
        return Ok(());
    }
    let old = flow(ir, &ops, &args, &|m| m != lp && inside(ir, m, alloc));
    let elementwise = hivm_dialects::hivm::vector::is_elementwise(ir.op_name(w)) || ir.is_op(w, "hivm.hir.copy");
    // A loop inside this one around both ops runs the use again after the write.
    let looped = |x: OpId| {
        let mut p = ir.parent_op(w);
        while let Some(m) = p.filter(|m| *m != lp) {
            if is_loop(ir, m) && (x == w || inside(ir, m, x)) {
                return true;
            }
            p = ir.parent_op(m);
        }
        false
    };
    for &x in &ops {
        if !ir.operands(x).iter().any(|v| old.contains(v)) {
            continue;
        }
        let back_edge = ir.is_op(x, "scf.yield") && ir.parent_op(x) == Some(lp);
        let late = if back_edge {
            true
        } else if matches!(ir.op_name(x), "scf.yield" | "scf.condition") {
            // Passes the value on; its new names are followed above.
            false
        } else {
            order[&x] > order[&w] || (x == w && !elementwise) || looped(x)
        };
        if late {
            let what = if back_edge {
                "passes it on to the next iteration"
            } else {
                "uses it after the loop body writes the next instance"
            };
            return Err(Diagnostic::error(
                ir.loc(alloc),
                format!(
                    "hivm-plan-memory: a loop carries this buffer into a later iteration and {what}; with one \
                     address per alloc the earlier instance and the next share bytes (separate addresses per \
                     instance are not planned)"
                ),
            )
            .with_note(ir.loc(lp), format!("the loop ('{}')", ir.op_name(lp)))
            .with_note(ir.loc(w), "the next instance is written here")
            .with_note(ir.loc(x), "the earlier instance is still used here"));
        }
    }
    Ok(())
}
