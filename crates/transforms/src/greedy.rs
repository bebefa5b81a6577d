//! What MLIR's greedy rewrite driver does to a function around the
//! patterns of a pass, for passes upstream runs through it: constants are
//! hoisted to the function's entry block and merged (its operation folder),
//! and ops whose results are unused and that have no effect but allocating
//! them are erased. Passes call [`cleanup`] where the driver's iterations
//! would run it, so their output matches upstream's op for op.

use rustc_hash::FxHashMap;

use hivm_ir::dialect::Traits;
use hivm_ir::{Attribute, Ir, OpId, Type, Value};

/// One of the driver's constant passes: nested constants first (post
/// order); a constant equal to one already kept is replaced by it; a new
/// one stays where it is only if it opens the entry block or follows a kept
/// constant there, and otherwise moves to the front of the entry block.
pub fn hoist_constants(ir: &mut Ir, func: OpId) {
    let Some(&entry) = ir.regions(func).first().and_then(|r| ir.region_blocks(*r).first()) else { return };
    let mut constants = Vec::new();
    ir.walk_post(func, &mut |o| {
        if ir.is_op(o, "arith.constant") && o != func {
            constants.push(o);
        }
    });
    let mut kept: FxHashMap<(Option<Attribute>, Type), Value> = FxHashMap::default();
    let mut kept_ops: Vec<OpId> = Vec::new();
    for c in constants {
        let r = ir.result(c, 0);
        let key = (ir.get_attr(c, "value"), ir.value_type(r));
        if let Some(&v) = kept.get(&key) {
            ir.replace_all_uses_in(func, r, v);
            ir.erase_op(c);
            continue;
        }
        let stays = ir.parent_block(c) == Some(entry) && ir.prev_op(c).is_none_or(|p| kept_ops.contains(&p));
        if !stays && let Some(first) = ir.block(entry).first.filter(|f| *f != c) {
            ir.move_op_before(c, first);
        }
        kept.insert(key, r);
        kept_ops.push(c);
    }
}

/// Whether an unused `op` may go: results none of which is used, no
/// regions, not a terminator, and pure or only allocating.
fn trivially_dead(ir: &Ir, op: OpId, uses: &FxHashMap<Value, usize>) -> bool {
    let terminator = ir.op_def(op).is_some_and(|d| d.traits.has(Traits::TERMINATOR));
    if terminator
        || ir.results(op).is_empty()
        || !ir.regions(op).is_empty()
        || ir.results(op).iter().any(|r| uses.get(r).copied().unwrap_or(0) > 0)
    {
        return false;
    }
    let pure = ir.op_def(op).is_some_and(|d| d.traits.has(Traits::PURE));
    pure || matches!(ir.op_name(op), "memref.alloc" | "memref.alloca" | "hivm.hir.pointer_cast")
}

/// [`trivially_dead`], also for ops whose effects are those of their
/// regions (`scf.if`, `scf.for`) when everything inside is pure: MLIR's
/// `wouldOpBeTriviallyDead` looks through such ops, so an `if` emptied by a
/// rewrite goes.
pub fn trivially_dead_recursive(ir: &Ir, op: OpId, uses: &FxHashMap<Value, usize>) -> bool {
    if trivially_dead(ir, op, uses) {
        return true;
    }
    if !matches!(ir.op_name(op), "scf.if" | "scf.for")
        || ir.results(op).iter().any(|r| uses.get(r).copied().unwrap_or(0) > 0)
    {
        return false;
    }
    let mut pure = true;
    ir.walk(op, &mut |o| {
        if o != op && !ir.is_op(o, "scf.yield") && !ir.op_def(o).is_some_and(|d| d.traits.has(Traits::PURE)) {
            pure = false;
        }
    });
    pure
}

/// Erases trivially dead ops until none is left; whether any was.
pub fn erase_dead(ir: &mut Ir, func: OpId) -> bool {
    erase_dead_where(ir, func, &|ir, op, uses| trivially_dead(ir, op, uses))
}

/// Use counts of the values under a function.
pub type UseCounts = FxHashMap<Value, usize>;

/// Erases, until none is left, the ops `dead` calls dead given the use
/// counts; whether any was.
pub fn erase_dead_where(ir: &mut Ir, func: OpId, dead: &dyn Fn(&Ir, OpId, &UseCounts) -> bool) -> bool {
    let mut changed = false;
    loop {
        let mut uses: FxHashMap<Value, usize> = FxHashMap::default();
        let mut ops = Vec::new();
        ir.walk(func, &mut |o| {
            for v in ir.operands(o) {
                *uses.entry(*v).or_insert(0) += 1;
            }
            if o != func {
                ops.push(o);
            }
        });
        let gone: Vec<OpId> = ops.into_iter().filter(|o| dead(ir, *o, &uses)).collect();
        if gone.is_empty() {
            return changed;
        }
        for o in gone {
            ir.erase_op(o);
        }
        changed = true;
    }
}

/// The driver around `apply` (which returns whether it changed anything):
/// constants, then the patterns and dead ops, until nothing changes (at
/// most ten times, as the driver's default).
pub fn drive(
    ir: &mut Ir,
    func: OpId,
    apply: &mut dyn FnMut(&mut Ir) -> Result<bool, hivm_ir::diagnostics::Diagnostic>,
) -> Result<(), hivm_ir::diagnostics::Diagnostic> {
    drive_with(ir, func, &trivially_dead, apply)
}

/// [`drive`] with the given test for dead ops.
pub fn drive_with(
    ir: &mut Ir,
    func: OpId,
    dead: &dyn Fn(&Ir, OpId, &UseCounts) -> bool,
    apply: &mut dyn FnMut(&mut Ir) -> Result<bool, hivm_ir::diagnostics::Diagnostic>,
) -> Result<(), hivm_ir::diagnostics::Diagnostic> {
    for _ in 0..10 {
        hoist_constants(ir, func);
        let changed = apply(ir)?;
        let erased = erase_dead_where(ir, func, dead);
        if !changed && !erased {
            break;
        }
    }
    Ok(())
}
