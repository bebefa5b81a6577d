//! `hivm-mark-multi-buffer{enable-auto=true}`: the local buffer a
//! `hivm.hir.load` fills, a `hivm.hir.store` drains or an `nd2nz` fills in
//! L1 gets `annotation.mark {hivm.multi_buffer = 2 : i32}` right after its
//! `memref.alloc` when that alloc sits in a loop nest of `scf.for` /
//! `scf.while` only, so that the next iteration's copy can overlap this
//! one's compute. Fixpipe's L0C (upstream's default `no-l0c`) and
//! workspaces are left alone; in a mixed cube/vector function only the cube
//! side (`nd2nz`) is marked, upstream's default `only-cube`.
//!
//! Upstream applies the marking through MLIR's greedy rewrite driver, which
//! also hoists and merges constants and erases dead ops; so does this pass
//! (`crate::greedy`).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, TypeData, Value};

use super::{enclosing_loop, is_host, multi_buffer_marks, only_sequential_loops, root_alloc, space};

pub struct MarkMultiBuffer {
    enable_auto: bool,
}

impl MarkMultiBuffer {
    pub fn from_options(options: &str) -> Result<MarkMultiBuffer, String> {
        let mut enable_auto = false;
        for kv in options.split_whitespace() {
            let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
            match (k, v) {
                ("enable-auto", "true" | "1") => enable_auto = true,
                ("enable-auto", "false" | "0") => enable_auto = false,
                _ => return Err(format!("option '{kv}' of hivm-mark-multi-buffer is not supported")),
            }
        }
        Ok(MarkMultiBuffer { enable_auto })
    }
}

/// Whether the function mixes cube and vector work.
fn is_mix(ir: &Ir, f: OpId) -> bool {
    let core = ir
        .get_attr(f, "hivm.func_core_type")
        .and_then(|a| hivm_dialects::hivm::attrs::enum_value(ir, a, "func_core_type"));
    core == Some("MIX") || ir.has_attr(f, "hivm.part_of_mix")
}

/// The on-chip side of a copy, if the copy works on buffers whose types
/// name their memory: the source when it is not GM, else the destination.
fn local_side(ir: &Ir, op: OpId) -> Option<Value> {
    let ops = ir.operands(op);
    let (src, dst) = (*ops.first()?, *ops.get(1)?);
    if !ops.iter().all(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::MemRef { .. }) || !is_shaped(ir, *v)) {
        return None;
    }
    let (s, d) = (space(ir, src)?, space(ir, dst)?);
    if s != "gm" {
        Some(src)
    } else if d != "gm" {
        Some(dst)
    } else {
        None
    }
}

fn is_shaped(ir: &Ir, v: Value) -> bool {
    ir.type_data(ir.value_type(v)).is_shaped()
}

/// Marks what needs marking; whether anything did.
fn mark_function(ir: &mut Ir, f: OpId) -> bool {
    let mut changed = false;
    let mix = is_mix(ir, f);
    let mut copies = Vec::new();
    ir.walk(f, &mut |o| {
        let take = match ir.op_name(o) {
            "hivm.hir.nd2nz" => true,
            "hivm.hir.load" | "hivm.hir.store" => !mix,
            _ => false,
        };
        if take {
            copies.push(o);
        }
    });
    for op in copies {
        let Some(v) = local_side(ir, op) else { continue };
        let Some(alloc) = root_alloc(ir, v) else { continue };
        let buf = ir.result(alloc, 0);
        if !multi_buffer_marks(ir, f, buf).is_empty() {
            continue;
        }
        if !enclosing_loop(ir, alloc).is_some_and(|l| only_sequential_loops(ir, l)) {
            continue;
        }
        let i32t = ir.int_type(32);
        let two = ir.int_attr(2, i32t);
        let loc = ir.loc(alloc);
        Builder::new(ir, InsertPoint::After(alloc)).op(
            "annotation.mark",
            &[buf],
            &[],
            vec![("hivm.multi_buffer", two)],
            loc,
        );
        changed = true;
    }
    changed
}

impl Pass for MarkMultiBuffer {
    fn name(&self) -> &str {
        "hivm-mark-multi-buffer"
    }

    fn display_name(&self) -> &str {
        "MarkMultiBuffer"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        if !self.enable_auto {
            return Ok(());
        }
        for f in super::super::defined_functions(ir, root) {
            if !is_host(ir, f) {
                crate::greedy::drive(ir, f, &mut |ir| Ok(mark_function(ir, f)))?;
            }
        }
        Ok(())
    }
}
