//! `convert-to-hivm-op`: after bufferization a kernel moves data with
//! `memref.copy` and `bufferization.materialize_in_destination`; this pass
//! gives each its DMA op. A copy whose source comes from global memory
//! (a kernel parameter, a GM `pointer_cast`, a `memref.get_global`, a
//! distributed custom op's result) becomes
//! `hivm.hir.load` (`load.rs`: padding, initialisation and cache hints are
//! gathered from the destination buffer); one whose destination does becomes
//! `hivm.hir.store`; any other copy becomes `hivm.hir.copy`. A materialize
//! into global memory becomes a store. Inside vector functions copies stay
//! local (`hivm.hir.copy`) and materializes are kept; inside `scf.forall`
//! (SIMT code) nothing changes, and HOST functions are left alone. Upstream
//! runs the rewrites through the greedy driver (bottom-up), then removes the
//! `pad_const` annotations no load consumed.

mod load;

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, Value};
use rustc_hash::FxHashMap;

use super::trace;

pub struct ConvertToHivmOp;

impl Pass for ConvertToHivmOp {
    fn name(&self) -> &str {
        "convert-to-hivm-op"
    }

    fn display_name(&self) -> &str {
        "ConvertToHIVMOp"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let funcs = functions(ir, root);
        for &f in &funcs {
            crate::greedy::drive_with(ir, f, &crate::greedy::trivially_dead_recursive, &mut |ir| {
                Ok(lower_function(ir, f))
            })?;
        }
        for &f in &funcs {
            crate::greedy::drive_with(ir, f, &crate::greedy::trivially_dead_recursive, &mut |ir| {
                Ok(drop_pad_marks(ir, f))
            })?;
        }
        Ok(())
    }
}

/// Every `func.func` under `root` with a body, HOST functions excepted.
fn functions(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut v = Vec::new();
    ir.walk(root, &mut |o| {
        if ir.is_op(o, "func.func") && !ir.regions(o)[0..].iter().all(|r| ir.region_blocks(*r).is_empty()) {
            v.push(o);
        }
    });
    v.retain(|f| !is_host(ir, *f));
    v
}

fn is_host(ir: &Ir, f: OpId) -> bool {
    ir.get_attr(f, "hacc.function_kind").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
        == Some("HOST")
}

/// Whether `op` lies in an `scf.forall`, and whether its function is a
/// vector function.
fn context(ir: &Ir, op: OpId) -> (bool, bool) {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if ir.is_op(p, "scf.forall") {
            return (true, false);
        }
        if ir.is_op(p, "func.func") {
            return (false, ir.has_attr(p, "hivm.vector_function"));
        }
        cur = ir.parent_op(p);
    }
    (false, false)
}

/// Users of each value in a function, most recent use first (the order of
/// MLIR's use lists for parsed IR).
pub(super) struct Users(FxHashMap<Value, Vec<OpId>>);

impl Users {
    pub(super) fn of_function(ir: &Ir, f: OpId) -> Users {
        let mut m: FxHashMap<Value, Vec<OpId>> = FxHashMap::default();
        ir.walk(f, &mut |o| {
            for v in ir.operands(o) {
                let list = m.entry(*v).or_default();
                if list.last() != Some(&o) {
                    list.push(o);
                }
            }
        });
        m.values_mut().for_each(|l| l.reverse());
        Users(m)
    }

    pub(super) fn of(&self, v: Value) -> &[OpId] {
        self.0.get(&v).map_or(&[], |l| l.as_slice())
    }

    /// Users of any result of `op`.
    pub(super) fn of_op(&self, ir: &Ir, op: OpId) -> Vec<OpId> {
        let mut out: Vec<OpId> = Vec::new();
        for r in ir.results(op) {
            for u in self.of(*r) {
                if !out.contains(u) {
                    out.push(*u);
                }
            }
        }
        out
    }
}

/// Upstream's `isFromGMSpace`: going back from `v` (stopping at allocations,
/// GM pointer casts and globals) ends only at parameters, pointer casts and
/// globals.
pub(super) fn from_gm(ir: &Ir, users: &Users, v: Value) -> bool {
    let safe = |ir: &Ir, x: Value| {
        trace::is_alloc_like(ir, x) || gm_pointer_cast(ir, users, x) || trace::defined_by(ir, x, "memref.get_global")
    };
    trace::back_until(ir, v, &safe).into_iter().all(|x| {
        trace::def(ir, x).is_none_or(|d| matches!(ir.op_name(d), "hivm.hir.pointer_cast" | "memref.get_global"))
    })
}

/// Upstream's `isFromDistCallResult`: the buffer behind `v` is returned by a
/// distributed custom op (a communication library call handing out GM).
fn from_distributed(ir: &Ir, v: Value) -> bool {
    trace::def(ir, trace::back_to_alloc(ir, v)).is_some_and(|d| super::infer_mem_scope::is_distributed(ir, d))
}

/// Whether a copy or materialize touching `v` reaches global memory.
fn global(ir: &Ir, users: &Users, v: Value) -> bool {
    from_gm(ir, users, v) || from_distributed(ir, v)
}

/// A `pointer_cast` annotated with `address_space = #hivm.address_space<gm>`.
fn gm_pointer_cast(ir: &Ir, users: &Users, v: Value) -> bool {
    trace::defined_by(ir, v, "hivm.hir.pointer_cast")
        && users.of(v).iter().any(|u| {
            ir.is_op(*u, "annotation.mark")
                && ir
                    .get_attr(*u, "address_space")
                    .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "address_space"))
                    == Some("gm")
        })
}

/// The first `annotation.mark` on `v` with `key`, static or dynamic.
pub(super) fn mark_with(ir: &Ir, users: &Users, v: Value, key: &str) -> Option<OpId> {
    users
        .of(v)
        .iter()
        .copied()
        .find(|u| ir.is_op(*u, "annotation.mark") && (ir.has_attr(*u, key) || has_key(ir, *u, key)))
}

/// Whether a mark carries `key` among its dynamic `keys`.
pub(super) fn has_key(ir: &Ir, mark: OpId, key: &str) -> bool {
    ir.get_attr(mark, "keys")
        .and_then(|a| ir.as_array(a))
        .is_some_and(|ks| ks.iter().any(|k| ir.as_str(*k) == Some(key)))
}

/// One round of the rewrites over a function, bottom-up as the greedy
/// driver visits ops; whether anything changed.
fn lower_function(ir: &mut Ir, f: OpId) -> bool {
    let mut candidates = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "memref.copy") || ir.is_op(o, "bufferization.materialize_in_destination") {
            candidates.push(o);
        }
    });
    let mut changed = false;
    for op in candidates.into_iter().rev() {
        if ir.is_erased(op) {
            continue;
        }
        let (in_forall, in_vf) = context(ir, op);
        if in_forall {
            continue;
        }
        let users = Users::of_function(ir, f);
        let (src, dst) = (ir.operand(op, 0), ir.operand(op, 1));
        if ir.is_op(op, "memref.copy") {
            if !in_vf && global(ir, &users, src) {
                load::lower_copy(ir, &users, op);
            } else if !in_vf && global(ir, &users, dst) {
                let transpose = mark_with(ir, &users, dst, "MayImplicitTransposeWithLastAxis").is_some();
                replace_with_store(ir, op, transpose);
            } else {
                replace_with(ir, op, "hivm.hir.copy", vec![]);
            }
            changed = true;
        } else if !in_vf && global(ir, &users, dst) {
            replace_with_store(ir, op, false);
            changed = true;
        }
    }
    changed
}

fn replace_with_store(ir: &mut Ir, op: OpId, transpose: bool) {
    let attrs = if transpose { vec![("may_implicit_transpose_with_last_axis", ir.bool_attr(true))] } else { vec![] };
    replace_with(ir, op, "hivm.hir.store", attrs);
}

/// Puts `name ins(src) outs(dst)` in the place of `op`.
fn replace_with(ir: &mut Ir, op: OpId, name: &str, mut attrs: Vec<(&str, hivm_ir::Attribute)>) {
    let (src, dst, loc) = (ir.operand(op, 0), ir.operand(op, 1), ir.loc(op));
    if name == "hivm.hir.copy" {
        attrs.push(("operandSegmentSizes", hivm_dialects::util::segment_attr(ir, &[1, 1, 0])));
    }
    Builder::new(ir, InsertPoint::Before(op)).op(name, &[src, dst], &[], attrs, loc);
    ir.erase_op(op);
}

/// Erases the marks that still carry a `pad_const` key.
fn drop_pad_marks(ir: &mut Ir, f: OpId) -> bool {
    let mut marks = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "annotation.mark") && has_key(ir, o, "pad_const") {
            marks.push(o);
        }
    });
    let changed = !marks.is_empty();
    marks.into_iter().for_each(|m| ir.erase_op(m));
    changed
}
