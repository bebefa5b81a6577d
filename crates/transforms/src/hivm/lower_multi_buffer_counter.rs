//! `hivm-lower-multi-buffer-counter`: each `hivm.hir.multi_buffer_counter`
//! (the sync solver's per-loop iteration counter for rotating event ids)
//! becomes a function-scoped `memref.alloca` holding the count: zeroed at
//! function entry, loaded at the counter's place and incremented before the
//! loop body's terminator. Counters of one block share one alloca.

use std::collections::HashMap;

use hivm_dialects::util::segment_attr;
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{BlockId, Ir, OpId, TypeData, Value};

pub struct LowerMultiBufferCounter;

use super::int_constant as constant;

fn lower_function(ir: &mut Ir, func: OpId) -> Result<(), Diagnostic> {
    let mut counters = Vec::new();
    ir.walk(func, &mut |o| {
        if ir.op_name(o) == "hivm.hir.multi_buffer_counter" {
            counters.push(o);
        }
    });
    let entry = ir.region_blocks(ir.regions(func)[0])[0];
    let mut lowered: HashMap<BlockId, Value> = HashMap::new();
    for counter in counters {
        let loc = ir.loc(counter);
        let in_loop = ir.parent_op(counter).is_some_and(|p| matches!(ir.op_name(p), "scf.for" | "scf.while"));
        if !in_loop {
            return Err(Diagnostic::error(loc, "multi-buffer counter must be inside scf.for or scf.while"));
        }
        let block = ir.parent_block(counter).expect("an op in a block");
        if let Some(v) = lowered.get(&block) {
            ir.replace_op(counter, &[*v]);
            continue;
        }
        let Some(term) = ir.block(block).last.filter(|t| *t != counter) else {
            return Err(Diagnostic::error(loc, "multi-buffer counter loop body has no terminator"));
        };
        let i64t = ir.int_type(64);
        let memty = ir.ty(TypeData::MemRef { shape: vec![1], elem: i64t, layout: None, memory_space: None });
        let seg = segment_attr(ir, &[0, 0]);
        let mut b = Builder::new(ir, InsertPoint::start(ir, entry));
        let alloca = b.op("memref.alloca", &[], &[memty], vec![("operandSegmentSizes", seg)], loc);
        let alloca = b.ir.result(alloca, 0);
        let zero = constant(&mut b, 0, false, loc);
        let at = constant(&mut b, 0, true, loc);
        b.op("memref.store", &[zero, alloca, at], &[], vec![], loc);
        let mut b = Builder::new(ir, InsertPoint::Before(counter));
        let at = constant(&mut b, 0, true, loc);
        let load = b.op("memref.load", &[alloca, at], &[i64t], vec![], loc);
        let count = b.ir.result(load, 0);
        let tloc = ir.loc(term);
        let mut b = Builder::new(ir, InsertPoint::Before(term));
        let one = constant(&mut b, 1, false, tloc);
        let next = b.op("arith.addi", &[count, one], &[i64t], vec![], tloc);
        let next = b.ir.result(next, 0);
        let at = constant(&mut b, 0, true, tloc);
        b.op("memref.store", &[next, alloca, at], &[], vec![], tloc);
        lowered.insert(block, count);
        ir.replace_op(counter, &[count]);
    }
    Ok(())
}

impl Pass for LowerMultiBufferCounter {
    fn name(&self) -> &str {
        "hivm-lower-multi-buffer-counter"
    }

    fn display_name(&self) -> &str {
        "LowerMultiBufferCounter"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for f in super::defined_functions(ir, root) {
            lower_function(ir, f)?;
        }
        Ok(())
    }
}
