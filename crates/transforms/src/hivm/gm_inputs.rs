//! `hivm-custom-gm-inputs` (hivm-rs; no upstream counterpart): a custom op
//! whose input pipe is PIPE_MTE2 — a `custom_macro` with `pipe_in` MTE2, as
//! the CustomOp document's `macro_add` — moves its inputs from global memory
//! itself, so its implementation takes them as `__gm__` memrefs. After
//! bufferization such an input is a local buffer that one `hivm.hir.load`
//! filled from global memory; handing the op that buffer would make the NPU
//! read a UB address as a GM one. This pass gives the op the load's GM
//! source instead, and drops the load and its buffer when nothing else reads
//! them (after memory-scope inference, which tells GM from UB). It only
//! does so when the result is the same: the load copies the
//! whole buffer without padding, in the op's block, and nothing between them
//! can write global memory.

use hivm_dialects::hivm::custom;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, Value};

use super::{address_space, enclosing, trace};

pub struct CustomGmInputs;

impl Pass for CustomGmInputs {
    fn name(&self) -> &str {
        "hivm-custom-gm-inputs"
    }

    fn display_name(&self) -> &str {
        "CustomGmInputs"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for op in crate::hivm::custom_ops(ir, root) {
            if custom::pipes(ir, op).first().copied() != Some("PIPE_MTE2") {
                continue;
            }
            let n_ins = custom::ins(ir, op).len();
            for i in 0..n_ins {
                let v = custom::ins(ir, op)[i];
                if let Some(src) = gm_source(ir, op, v) {
                    let pos = ir.operands(op).iter().position(|x| *x == v).expect("an ins operand");
                    ir.set_operand(op, pos, src);
                    drop_if_unread(ir, v);
                }
            }
        }
        Ok(())
    }
}

/// Every op using `v` (directly).
fn users(ir: &Ir, v: Value) -> Vec<OpId> {
    let Some(f) = ir.defining_op(v).and_then(|d| enclosing(ir, d, "func.func")) else { return Vec::new() };
    let mut out = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.operands(o).contains(&v) {
            out.push(o);
        }
    });
    out
}

/// The GM view a plain whole-buffer load put into the local buffer `v`,
/// when `op` may read that view instead.
fn gm_source(ir: &Ir, op: OpId, v: Value) -> Option<Value> {
    if !trace::is_alloc_like(ir, v) || address_space(ir, v) == Some("gm") {
        return None;
    }
    let writers: Vec<OpId> = users(ir, v).into_iter().filter(|u| *u != op && !only_reads(ir, *u, v)).collect();
    let [load] = writers[..] else { return None };
    if !ir.is_op(load, "hivm.hir.load") || ir.operands(load).len() != 2 || ir.operand(load, 1) != v {
        // Padding, initialisation or another destination: not a plain copy.
        return None;
    }
    let src = ir.operand(load, 0);
    if address_space(ir, src) != Some("gm")
        || ir.type_data(ir.value_type(src)).shape() != ir.type_data(ir.value_type(v)).shape()
    {
        return None;
    }
    // The load and the op in one block, nothing in between writing GM.
    if ir.parent_block(load) != ir.parent_block(op) {
        return None;
    }
    let mut cur = ir.next_op(load);
    while let Some(o) = cur {
        if o == op {
            return Some(src);
        }
        if may_write_gm(ir, o) {
            return None;
        }
        cur = ir.next_op(o);
    }
    None
}

/// Whether `user` only reads `v` (a custom op taking it as an input, a view
/// or mark of it).
fn only_reads(ir: &Ir, user: OpId, v: Value) -> bool {
    if custom::is_custom(ir, user) {
        return custom::ins(ir, user).contains(&v) && !custom::outs(ir, user).contains(&v);
    }
    match ir.op_name(user) {
        "hivm.hir.store" | "hivm.hir.copy" => ir.operand(user, 0) == v && ir.operand(user, 1) != v,
        "annotation.mark" | "memref.dim" => true,
        _ => false,
    }
}

fn may_write_gm(ir: &Ir, op: OpId) -> bool {
    let mut writes = false;
    ir.walk(op, &mut |o| {
        let name = ir.op_name(o);
        writes |= custom::is_custom(ir, o)
            || name == "func.call"
            || matches!(name, "hivm.hir.store" | "hivm.hir.fixpipe" | "memref.store" | "memref.copy")
            || (name == "hivm.hir.copy" && address_space(ir, ir.operand(o, 1)) == Some("gm"));
    });
    writes
}

/// Erases the load filling `v` and `v`'s allocation once nothing reads `v`.
fn drop_if_unread(ir: &mut Ir, v: Value) {
    let us = users(ir, v);
    if us.iter().all(|u| ir.is_op(*u, "hivm.hir.load") && ir.operand(*u, 1) == v) {
        for u in us {
            ir.erase_op(u);
        }
        if let Some(a) = ir.defining_op(v) {
            ir.erase_op(a);
        }
    }
}
