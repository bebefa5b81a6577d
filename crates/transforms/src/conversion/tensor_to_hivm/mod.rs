//! `convert-tensor-to-hivm` (AscendNPU-IR's lib/Conversion/TensorToHIVM):
//! `tensor.concat` becomes `hivm.hir.vconcat` and `tensor.pad` (with a
//! constant padding value) `hivm.hir.vpad`, each into a `tensor.empty` of
//! the result's size, computed as MLIR reifies it. A partial conversion:
//! a concat or pad no pattern takes fails the pass at the op.
//!
//! `concat.rs` and `pad.rs` have the two patterns; `sizes.rs` the size
//! arithmetic they share (sums of static sizes and `affine.apply`).

mod concat;
mod pad;
mod sizes;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

use super::to_hfusion::{Cx, convert};

pub struct TensorToHIVM;

fn illegal_op(ir: &Ir, op: OpId) -> bool {
    ir.is_op(op, "tensor.concat") || ir.is_op(op, "tensor.pad")
}

fn rewrite(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    if cx.ir.is_op(op, "tensor.concat") { Ok(concat::rewrite(cx, op)) } else { Ok(pad::rewrite(cx, op)) }
}

impl Pass for TensorToHIVM {
    fn name(&self) -> &str {
        "convert-tensor-to-hivm"
    }

    fn display_name(&self) -> &str {
        "ConvertTensorToHIVM"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        convert(ir, root, illegal_op, rewrite)
    }
}
