//! `convert-linalg-to-hfusion` (AscendNPU-IR's lib/Conversion/LinalgToHFusion):
//! the linalg forms triton-ascend leaves for what hfusion has ops for.
//! `linalg.map` calling one `__hmf_*` library function becomes the matching
//! named op (`map.rs`); `linalg.generic` writing `index_cast(linalg.index)`
//! becomes `hfusion.arange`, one marked `GenericAtomicRMW` an
//! `hfusion.atomic_{rmw,cas,xchg}` (`generic.rs`); `linalg.reduce` marked
//! `reduce_mode` becomes `hfusion.reduce_with_index` (`reduce.rs`). As in
//! upstream's partial conversion, every `linalg.map` and `linalg.generic`
//! and every marked `linalg.reduce` is illegal: one no pattern takes fails
//! the pass at the op.

mod generic;
mod map;
mod reduce;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub(crate) use super::to_hfusion::Cx;
use super::to_hfusion::convert;

pub struct LinalgToHFusion;

fn illegal_op(ir: &Ir, op: OpId) -> bool {
    match ir.op_name(op) {
        "linalg.map" | "linalg.generic" => true,
        "linalg.reduce" => ir.get_attr(op, "reduce_mode").is_some(),
        _ => false,
    }
}

impl Pass for LinalgToHFusion {
    fn name(&self) -> &str {
        "convert-linalg-to-hfusion"
    }

    fn display_name(&self) -> &str {
        "ConvertLinalgToHFusion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        convert(ir, root, illegal_op, |cx, op| match cx.ir.op_name(op) {
            "linalg.map" => map::rewrite(cx, op),
            "linalg.generic" => generic::rewrite(cx, op),
            _ => reduce::rewrite(cx, op),
        })
    }
}
