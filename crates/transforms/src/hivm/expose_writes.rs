//! `hivm-expose-memref-write-to-tensor`: after convert-to-hivm-op a buffer
//! may be filled by a memref-level write (`hivm.hir.load outs(%alloc)`)
//! and then read as a tensor through `bufferization.to_tensor ... writable`.
//! Bufferization analyses tensors only, so it cannot see that write; this
//! pass makes it visible by reading the tensor through a
//! `hivm.hir.copy {to_be_replaced}` into a fresh `tensor.empty`, whose
//! result takes the place of the `to_tensor` for every use it had (the
//! helpers built here keep reading the `to_tensor` itself).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, Value};

use crate::bufferize::interface::{Kind, dps_outs, kind};

pub struct ExposeMemrefWriteToTensor;

impl Pass for ExposeMemrefWriteToTensor {
    fn name(&self) -> &str {
        "hivm-expose-memref-write-to-tensor"
    }

    fn display_name(&self) -> &str {
        "ExposeMemrefWriteToTensor"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for f in super::defined_functions(ir, root) {
            let mut found = Vec::new();
            ir.walk(f, &mut |o| {
                if ir.is_op(o, "bufferization.to_tensor") && ir.has_attr(o, "writable") {
                    found.push(o);
                }
            });
            let users = super::to_hivm_op::Users::of_function(ir, f);
            let exposed: Vec<OpId> = found.into_iter().filter(|t| written_before(ir, &users, *t)).collect();
            for t in exposed {
                expose(ir, f, t);
            }
        }
        Ok(())
    }
}

/// Ops whose result is a view of their first operand.
fn is_view(ir: &Ir, op: OpId) -> bool {
    matches!(
        ir.op_name(op),
        "memref.subview"
            | "memref.view"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.memory_space_cast"
            | "memref.transpose"
            | "memref.reshape"
    )
}

/// Whether a destination-style op before `to_tensor` writes its buffer
/// or a view of it.
fn written_before(ir: &Ir, users: &super::to_hivm_op::Users, to_tensor: OpId) -> bool {
    let mut work = vec![ir.operand(to_tensor, 0)];
    let mut seen: Vec<Value> = Vec::new();
    while let Some(v) = work.pop() {
        if seen.contains(&v) {
            continue;
        }
        seen.push(v);
        for &u in users.of(v) {
            if u == to_tensor || !super::properly_dominates(ir, u, to_tensor) {
                continue;
            }
            if kind(ir, u) == Some(Kind::Dps)
                && ir.operands(u).get(dps_outs(ir, u)).is_some_and(|outs| outs.contains(&v))
            {
                return true;
            }
            if is_view(ir, u) && !ir.results(u).is_empty() {
                work.push(ir.result(u, 0));
            }
        }
    }
    false
}

fn expose(ir: &mut Ir, f: OpId, to_tensor: OpId) {
    let t = ir.result(to_tensor, 0);
    let ty = ir.value_type(t);
    let loc = ir.loc(to_tensor);
    let Some(at) = ir.next_op(to_tensor) else { return };
    let elem = hivm_dialects::util::element_or_self(ir, ty);
    let empty = crate::conversion::empty_like(ir, at, t, elem);
    let seg = hivm_dialects::util::segment_attr(ir, &[1, 1, 0]);
    let unit = ir.unit_attr();
    let copy = Builder::new(ir, InsertPoint::Before(at)).op(
        "hivm.hir.copy",
        &[t, empty],
        &[ty],
        vec![("operandSegmentSizes", seg), ("to_be_replaced", unit)],
        loc,
    );
    let copied = ir.result(copy, 0);
    // Every use but the new ones (the copy, and `tensor.dim`s of the empty).
    let helpers: Vec<OpId> = {
        let mut v = vec![copy];
        let mut cur = ir.next_op(to_tensor);
        while let Some(o) = cur.filter(|o| *o != copy) {
            v.push(o);
            cur = ir.next_op(o);
        }
        v
    };
    let mut ops = Vec::new();
    ir.walk(f, &mut |o| ops.push(o));
    for o in ops.into_iter().filter(|o| !helpers.contains(o)) {
        ir.remap_operands_with(o, |v| (v == t).then_some(copied));
    }
}
