//! `convert-arith-to-hfusion` (AscendNPU-IR's lib/Conversion/ArithToHFusion):
//! arith ops whose operands are all ranked tensors become named
//! elementwise ops on a fresh `tensor.empty` — linalg's for the arithmetic
//! linalg names (`add`, `div_unsigned`, `max_signed`, `negf`, ...), hfusion's
//! for the rest (bitwise, shifts, remainders, NaN-aware min/max, rounding
//! divisions, casts, compares, selects, `mulext`, `bitcast`) — and a splat
//! tensor constant becomes a `linalg.fill` of its scalar. Every other arith
//! op on tensors (a dynamic shape, `index_cast`, ...) fails the pass at the
//! op, as upstream's partial conversion does; scalar arith stays.
//!
//! `elementwise.rs` has the one-to-one ops and constants, `cast.rs` the
//! conversions, `compare.rs` compares and selects.

mod cast;
mod compare;
mod elementwise;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{AttrData, Ir, OpId};

pub(crate) use super::to_hfusion::Cx;
use super::to_hfusion::{convert, on_tensors};

pub struct ArithToHFusion;

/// The conversion target: arith ops on tensors and splat constants (of any
/// shaped type) are illegal.
fn illegal_op(ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    if !name.starts_with("arith.") {
        return false;
    }
    if name == "arith.constant" {
        return ir
            .get_attr(op, "value")
            .is_some_and(|a| matches!(ir.attr_data(a), AttrData::DenseElements { splat: true, .. }));
    }
    on_tensors(ir, op)
}

/// Tries each pattern for `op`; `Ok(false)` when none applies.
fn rewrite(cx: &mut Cx<'_>, op: OpId) -> Result<bool, Diagnostic> {
    let name = cx.ir.op_name(op).to_string();
    let short = &name["arith.".len()..];
    if let Some(done) = elementwise::rewrite(cx, op, short)? {
        return Ok(done);
    }
    if let Some(done) = cast::rewrite(cx, op, short)? {
        return Ok(done);
    }
    if let Some(done) = compare::rewrite(cx, op, short)? {
        return Ok(done);
    }
    Ok(false)
}

impl Pass for ArithToHFusion {
    fn name(&self) -> &str {
        "convert-arith-to-hfusion"
    }

    fn display_name(&self) -> &str {
        "ConvertArithToHFusion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        convert(ir, root, illegal_op, rewrite)
    }
}
