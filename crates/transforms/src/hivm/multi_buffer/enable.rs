//! `hivm-enable-multi-buffer`: a local `pointer_cast` with N addresses in a
//! loop nest of `scf.for` / `scf.while` becomes N single-address
//! `pointer_cast`s at the function's entry (each with a copy of its
//! marks), and inside the loop a choice among them by the iteration count
//! (`counter mod N`), read from the loop body's
//! `hivm.hir.multi_buffer_counter` (the sync solver's, or a new one that
//! `hivm-lower-multi-buffer-counter` later turns into a memory cell).
//!
//! Upstream runs this through MLIR's greedy driver, which also hoists and
//! merges the function's constants and erases dead ops; so does this pass
//! (`crate::greedy`).

use hivm_dialects::util::segment_attr;
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, Value};

use super::{enclosing_loop, is_host, only_sequential_loops, space};
use crate::hivm::int_constant;

pub struct EnableMultiBuffer;

fn split(ir: &mut Ir, f: OpId, pc: OpId) -> Result<(), Diagnostic> {
    let loc = ir.loc(pc);
    let addrs = hivm_dialects::util::segment(ir, pc, 0).to_vec();
    let sizes = hivm_dialects::util::segment(ir, pc, 1).to_vec();
    let Some(lp) = enclosing_loop(ir, pc).filter(|l| only_sequential_loops(ir, *l)) else { return Ok(()) };
    let entry = ir.region_blocks(ir.regions(f)[0])[0];
    let t = ir.value_type(ir.result(pc, 0));
    // The copies, at the function's entry, after their address constants.
    if addrs.iter().any(|a| ir.defining_op(*a).is_none_or(|d| !ir.is_op(d, "arith.constant"))) {
        return Err(Diagnostic::error(loc, "failed to multibuffer: addresses must be constants"));
    }
    // The copies live at the function's entry: so must their sizes.
    let at_entry = |v: &Value| match ir.value_def(*v) {
        hivm_ir::ValueDef::BlockArg { block, .. } => block == entry,
        _ => ir.defining_op(*v).is_some_and(|d| ir.is_op(d, "arith.constant")),
    };
    if !sizes.iter().all(at_entry) {
        return Err(Diagnostic::error(
            loc,
            "failed to multibuffer: dynamic sizes must be function arguments or constants",
        ));
    }
    for s in &sizes {
        if let Some(d) = ir.defining_op(*s)
            && let Some(first) = ir.block(entry).first.filter(|f| *f != d)
        {
            ir.move_op_before(d, first);
        }
    }
    let mut copies = Vec::new();
    for a in &addrs {
        let mut operands = vec![*a];
        operands.extend(&sizes);
        let seg = segment_attr(ir, &[1, sizes.len()]);
        let mut b = Builder::new(ir, InsertPoint::start(ir, entry));
        let c = b.op("hivm.hir.pointer_cast", &operands, &[t], vec![("operandSegmentSizes", seg)], loc);
        copies.push(c);
    }
    // Restore creation order (each went to the front), then put the
    // address constants before all of them.
    for w in copies.windows(2).rev() {
        ir.move_op_after(w[1], w[0]);
    }
    for a in addrs.iter().rev() {
        let d = ir.defining_op(*a).expect("a constant");
        if let Some(first) = ir.block(entry).first.filter(|x| *x != d) {
            ir.move_op_before(d, first);
        }
    }
    // Marks move to every copy.
    let v = ir.result(pc, 0);
    let mut marks = Vec::new();
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "annotation.mark") && ir.operands(o).first() == Some(&v) {
            marks.push(o);
        }
    });
    for m in marks {
        let attrs: Vec<(String, Attribute)> = ir
            .attr_names(m)
            .into_iter()
            .map(|n| n.to_string())
            .filter_map(|n| ir.get_attr(m, &n).map(|a| (n, a)))
            .collect();
        for &c in &copies {
            let cv = ir.result(c, 0);
            let named: Vec<(&str, Attribute)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
            let mloc = ir.loc(m);
            Builder::new(ir, InsertPoint::After(c)).op("annotation.mark", &[cv], &[], named, mloc);
        }
        ir.erase_op(m);
    }
    // The choice in the loop body, right after its iteration counter.
    let block = crate::hivm::block_in(ir, lp, pc);
    let counter = ir.block_ops(block).find(|o| ir.is_op(*o, "hivm.hir.multi_buffer_counter"));
    let counter = match counter {
        // The choice must come before the buffer's first use: the counter
        // (which only reads the iteration count) moves to the body's top.
        Some(c) => {
            if let Some(first) = ir.block(block).first.filter(|f| *f != c) {
                ir.move_op_before(c, first);
            }
            c
        }
        None => {
            let i64t = ir.int_type(64);
            Builder::new(ir, InsertPoint::start(ir, block)).op(
                "hivm.hir.multi_buffer_counter",
                &[],
                &[i64t],
                vec![],
                loc,
            )
        }
    };
    let count = ir.result(counter, 0);
    let (i64t, idx, i1) = (ir.int_type(64), ir.index_type(), ir.int_type(1));
    let mut b = Builder::new(ir, InsertPoint::After(counter));
    let n = int_constant(&mut b, copies.len() as i128, false, loc);
    let r = b.op("arith.remui", &[count, n], &[i64t], vec![], loc);
    let r = b.ir.result(r, 0);
    let ri = b.op("arith.index_cast", &[r], &[idx], vec![], loc);
    let ri = b.ir.result(ri, 0);
    let rj = b.op("arith.index_cast", &[ri], &[i64t], vec![], loc);
    let rj = b.ir.result(rj, 0);
    let mut sel = b.ir.result(copies[0], 0);
    for (i, c) in copies.iter().enumerate().skip(1) {
        let k = int_constant(&mut b, i as i128, false, loc);
        let eq = b.ir.i64_attr(0);
        let p = b.op("arith.cmpi", &[rj, k], &[i1], vec![("predicate", eq)], loc);
        let p = b.ir.result(p, 0);
        let cv = b.ir.result(*c, 0);
        let s = b.op("arith.select", &[p, cv, sel], &[t], vec![], loc);
        sel = b.ir.result(s, 0);
    }
    ir.replace_op(pc, &[sel]);
    Ok(())
}

impl Pass for EnableMultiBuffer {
    fn name(&self) -> &str {
        "hivm-enable-multi-buffer"
    }

    fn display_name(&self) -> &str {
        "EnableMultiBuffer"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for f in super::super::defined_functions(ir, root) {
            if is_host(ir, f) {
                continue;
            }
            crate::greedy::drive(ir, f, &mut |ir| {
                let mut casts = Vec::new();
                ir.walk(f, &mut |o| {
                    if ir.is_op(o, "hivm.hir.pointer_cast")
                        && hivm_dialects::util::segment(ir, o, 0).len() > 1
                        && space(ir, ir.result(o, 0)).is_some_and(|s| s != "gm")
                        && enclosing_loop(ir, o).is_some_and(|l| only_sequential_loops(ir, l))
                    {
                        casts.push(o);
                    }
                });
                // Upstream's worklist takes the last first.
                for &pc in casts.iter().rev() {
                    split(ir, f, pc)?;
                }
                Ok(!casts.is_empty())
            })?;
        }
        Ok(())
    }
}
