//! `triton-to-annotation`: triton-ascend's `tt.annotation` ops become
//! `annotation.mark`. Kernels without them (all Triton's own front end
//! makes) pass unchanged; the op itself is not in our `tt` dialect yet, so
//! meeting one (unregistered) is reported rather than passed over.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct TritonToAnnotation;

impl Pass for TritonToAnnotation {
    fn name(&self) -> &str {
        "triton-to-annotation"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut found = None;
        ir.walk(root, &mut |o| {
            if found.is_none() && ir.op_name(o) == "tt.annotation" {
                found = Some(o);
            }
        });
        match found {
            Some(o) => {
                Err(Diagnostic::error(ir.loc(o), "'tt.annotation' op is not supported by triton-to-annotation yet"))
            }
            None => Ok(()),
        }
    }
}
