//! Block locks: `create_sync_block_lock`, `sync_block_lock`,
//! `sync_block_unlock`, `free_lock_var`, as upstream's library runs them.
//!
//! The lock is a token ring in GM: block b's lock spins until the lock
//! variable equals b, its unlock (after a barrier of every pipe) writes
//! b + 1. So the blocks pass the section between them in block order, one
//! lock per block; `free_lock_var` passes the token on for a block whose
//! control flow skipped its lock (a no-op when it already has).
//!
//! The twin runs blocks in that same order, so a well-formed ring never
//! waits. What the ring orders goes to the check across blocks
//! (`sync/blocks.rs`): what a block did before its unlock comes before
//! whatever a later block does after its lock.

use std::rc::Rc;

use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::memory::Space;
use crate::sync::{self, Site, blocks::Phase};
use crate::value::{Elem, MemRefVal, Val, load, store};

impl Interp<'_> {
    pub(super) fn block_lock(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        for attr in ["hivm.sync_block_lock_unordered", "hivm.sync_block_lock_with_subblock"] {
            if ir.has_attr(op, attr) {
                let what = attr.trim_start_matches("hivm.");
                return Err(RunError::at(op, format!("'{name}' with {what} is not supported by the CPU twin yet")));
            }
        }
        if name == "hivm.hir.create_sync_block_lock" {
            return self.create_lock(op);
        }
        if self.mix.is_some() || self.sync.cross().is_some() {
            return Err(RunError::at(
                op,
                format!(
                    "'{name}' in a kernel whose cores run together (a mix kernel, or one with INTER_BLOCK flags) is \
                     not supported by the CPU twin yet"
                ),
            ));
        }
        let lock = self.memref(op, ir.operand(op, 0))?;
        // One ring per kernel: what a second one orders is not modelled.
        let id = (lock.buf, lock.offset);
        match self.lock_var {
            Some(v) if v != id => {
                return Err(RunError::at(
                    op,
                    "a second lock variable in one kernel is not supported by the CPU twin yet (it models one \
                     token ring)",
                ));
            }
            _ => self.lock_var = Some(id),
        }
        let block = self.block.0;
        let value = load(&self.mem, lock.buf, lock.elem, lock.offset).map(|v| v.int());
        let Some(value) = value else { return Err(RunError::at(op, "the lock variable is outside its buffer")) };
        let site = Site { op: Some(op), detail: None };
        match name {
            "hivm.hir.sync_block_lock" => {
                self.acquire(value, block, &site);
                Ok(())
            }
            "hivm.hir.sync_block_unlock" => self.release(op, &lock, block),
            _ => {
                // free_lock_var: the token passes on unless this block
                // already passed it.
                self.sync.full_barrier();
                if value > block {
                    return Ok(());
                }
                self.acquire(value, block, &site);
                self.release(op, &lock, block)
            }
        }
    }

    /// Spins until the lock variable holds this block's index.
    /// (A wait that would hang is reported and let through.)
    fn acquire(&mut self, value: i64, block: i64, site: &Site) {
        self.sync.issue(sync::S);
        if value != block {
            let why = if value < block {
                format!(
                    "block {value} never unlocked it (a lock its control flow skipped needs free_lock_var), so the \
                     token never reaches block {block}"
                )
            } else {
                "this block already passed the token on (a block locks once)".to_string()
            };
            self.sync.report(sync::Report {
                class: sync::Class::Hang,
                site: site.clone(),
                message: format!(
                    "sync_block_lock waits for the lock variable to hold the block index {block}, but it holds \
                     {value}: {why}; this hangs on hardware"
                ),
                other: None,
            });
        }
        // The ring orders this block after the ones before it only if the
        // token came from the block before (not from the lock's first value).
        let linked = self.lock_writer == Some(block - 1);
        if let Some(log) = self.sync.blocks.as_mut() {
            log.set_linked(linked);
        }
        self.set_lock_phase(Phase::Locked);
    }

    /// A barrier of every pipe, then the token to the next block.
    fn release(&mut self, op: OpId, lock: &MemRefVal, block: i64) -> R<()> {
        if self.lock_phase != Phase::Locked {
            return Err(RunError::at(
                op,
                "sync_block_unlock without a sync_block_lock before it in this block: it would pass on a token \
                 this block does not hold",
            ));
        }
        self.sync.full_barrier();
        self.sync.issue(sync::S);
        if !store(&mut self.mem, lock.buf, lock.elem, lock.offset, &Val::Int(block + 1)) {
            return Err(RunError::at(op, "the lock variable is outside its buffer"));
        }
        self.lock_writer = Some(block);
        self.set_lock_phase(Phase::Unlocked);
        Ok(())
    }

    fn set_lock_phase(&mut self, phase: Phase) {
        self.lock_phase = phase;
        if let Some(log) = self.sync.blocks.as_mut() {
            log.set_phase(phase);
        }
    }

    /// The lock variable: a view of the given memory, or (without one) a
    /// variable of the whole launch, 0 at its start.
    fn create_lock(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let res = ir.result(op, 0);
        let lock = match ir.operands(op).first() {
            Some(&arg) => {
                let m = self.memref(op, arg)?;
                let (lo, hi) = m.byte_span();
                if hi - lo < 8 || m.strides.last().is_some_and(|s| *s != 1) {
                    return Err(RunError::at(op, "the lock variable needs 8 contiguous bytes of its argument"));
                }
                if (lo + self.mem.get(m.buf).addr() as i64) % 8 != 0 {
                    return Err(RunError::at(op, "the lock variable must be 8-byte aligned"));
                }
                Rc::new(MemRefVal { offset: lo / 8, ..MemRefVal::contiguous(m.buf, Elem::Int(64), vec![1]) })
            }
            None => match self.locks.get(&op) {
                Some(l) => l.clone(),
                None => {
                    let buf = self.mem.alloc(8, Space::Gm).map_err(|e| RunError::at(op, e))?;
                    let l = Rc::new(MemRefVal::contiguous(buf, Elem::Int(64), vec![1]));
                    self.locks.insert(op, l.clone());
                    l
                }
            },
        };
        self.set(res, Val::Mem(lock));
        Ok(())
    }
}
