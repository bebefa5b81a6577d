//! Multi-buffering as the hardware sees it: a loop body's iteration counter
//! (`hivm.hir.multi_buffer_counter`, which `hivm-lower-multi-buffer-counter`
//! turns into a function-scoped memory cell incremented at the end of each
//! run of its block) and the `pointer_cast`s with several addresses that
//! `hivm-enable-multi-buffer` turns into a choice by that counter: each run
//! of the loop body uses address `count mod N`.

use std::collections::{HashMap, HashSet};

use hivm_ir::{BlockId, Ir, OpId};

use super::{Interp, R, RunError};
use crate::value::Val;

/// The counters of one function call: completed runs of each counted block.
#[derive(Default)]
pub struct Counters {
    runs: HashMap<BlockId, i64>,
}

/// Which blocks keep a count, found once per function.
#[derive(Default)]
pub struct CountedBlocks {
    seen: HashSet<OpId>,
    blocks: HashSet<BlockId>,
    /// The loop body each multi-address `pointer_cast` rotates with.
    casts: HashMap<OpId, BlockId>,
}

/// The block of the nearest enclosing `scf.for` / `scf.while` region that
/// holds `op` (the loop body whose runs are counted), if any.
fn loop_block(ir: &Ir, op: OpId) -> Option<BlockId> {
    let mut cur = op;
    loop {
        let b = ir.parent_block(cur)?;
        let parent = ir.block_parent_op(b)?;
        if matches!(ir.op_name(parent), "scf.for" | "scf.while") {
            return Some(b);
        }
        cur = parent;
    }
}

impl CountedBlocks {
    /// Notes the counters and multi-address casts of `func`, once.
    pub fn add_function(&mut self, ir: &Ir, func: OpId) {
        if !self.seen.insert(func) {
            return;
        }
        ir.walk(func, &mut |o| {
            let name = ir.op_name(o);
            if name == "hivm.hir.multi_buffer_counter" {
                if let Some(b) = ir.parent_block(o) {
                    self.blocks.insert(b);
                }
            } else if name == "hivm.hir.pointer_cast"
                && hivm_dialects::util::segment(ir, o, 0).len() > 1
                && let Some(b) = loop_block(ir, o)
            {
                self.blocks.insert(b);
                self.casts.insert(o, b);
            }
        });
    }

    pub fn counts(&self, b: BlockId) -> bool {
        !self.blocks.is_empty() && self.blocks.contains(&b)
    }
}

impl Interp<'_> {
    /// One more completed run of block `b`, if it keeps a count.
    pub(super) fn count_run(&mut self, b: BlockId) {
        if self.counted.counts(b) {
            *self.counters.runs.entry(b).or_default() += 1;
        }
    }

    /// `hivm.hir.multi_buffer_counter`: how many times its block has run to
    /// the end in this call of the function.
    pub(super) fn multi_buffer_counter(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let b = ir.parent_block(op).ok_or_else(|| RunError::at(op, "counter outside a block"))?;
        let in_loop = ir.block_parent_op(b).is_some_and(|p| matches!(ir.op_name(p), "scf.for" | "scf.while"));
        if !in_loop {
            return Err(RunError::at(op, "multi-buffer counter must be inside scf.for or scf.while"));
        }
        let n = self.counters.runs.get(&b).copied().unwrap_or(0);
        self.set(ir.result(op, 0), Val::Int(n));
        Ok(())
    }

    /// Which of a `pointer_cast`'s `n` addresses this run uses: the one its
    /// loop's counter selects (the first outside loops, where nothing
    /// rotates it).
    pub(super) fn address_slot(&self, op: OpId, n: usize) -> usize {
        match self.counted.casts.get(&op) {
            Some(b) => self.counters.runs.get(b).copied().unwrap_or(0).rem_euclid(n as i64) as usize,
            None => 0,
        }
    }

    /// Starts the counters of a function call, returning the caller's.
    pub(super) fn enter_counters(&mut self, func: OpId) -> Counters {
        self.counted.add_function(self.ir, func);
        std::mem::take(&mut self.counters)
    }

    pub(super) fn leave_counters(&mut self, saved: Counters) {
        self.counters = saved;
    }
}
