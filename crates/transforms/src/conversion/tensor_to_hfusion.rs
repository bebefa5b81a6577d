//! `convert-tensor-to-hfusion` (AscendNPU-IR's lib/Conversion/TensorToHFusion):
//! `tensor.splat` becomes a `linalg.fill` of a `tensor.empty` with the
//! splat's dynamic sizes, the form HFusion's later passes and the HIVM
//! conversion (`vbrc`) know.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

use super::to_hfusion::{Cx, convert, replace};

pub struct TensorToHFusion;

fn splat_to_fill(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let ir = &mut *cx.ir;
    let loc = ir.loc(op);
    let t = ir.value_type(ir.result(op, 0));
    let operands = ir.operands(op).to_vec();
    let (value, sizes) = operands.split_first().expect("tensor.splat has its input");
    let empty = Builder::new(ir, InsertPoint::Before(op)).op("tensor.empty", sizes, &[t], vec![], loc);
    let init = ir.result(empty, 0);
    let fill = hivm_dialects::linalg::build_fill(ir, InsertPoint::Before(op), *value, init, loc)
        .expect("a fill of a tensor has a result");
    replace(ir, op, &[fill], cx.map);
    Ok(true)
}

impl Pass for TensorToHFusion {
    fn name(&self) -> &str {
        "convert-tensor-to-hfusion"
    }

    fn display_name(&self) -> &str {
        "ConvertTensorToHFusion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        convert(ir, root, |ir, op| ir.is_op(op, "tensor.splat"), splat_to_fill)
    }
}
