//! `hivm-lower-multi-buffer-counter`: upstream turns the per-loop
//! `multi_buffer_counter` the sync solver creates for rotating event ids
//! into a counter in memory. hivm-rs's solver does not create counters yet
//! (it refuses multi-buffered syncs), so the pass only has to meet none.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct LowerMultiBufferCounter;

impl Pass for LowerMultiBufferCounter {
    fn name(&self) -> &str {
        "hivm-lower-multi-buffer-counter"
    }

    fn display_name(&self) -> &str {
        "LowerMultiBufferCounter"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut counter = None;
        ir.walk(root, &mut |o| {
            if counter.is_none() && ir.op_name(o) == "hivm.hir.multi_buffer_counter" {
                counter = Some(o);
            }
        });
        match counter {
            Some(op) => {
                Err(Diagnostic::error(ir.loc(op), "lowering multi_buffer_counter is not supported by hivm-rs yet"))
            }
            None => Ok(()),
        }
    }
}
