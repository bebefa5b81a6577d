//! `math.fma` on tensors: `hfusion.elemwise_ternary` with `fma` when the
//! pass keeps fused multiply-adds (f16, bf16, f32), else a linalg `mul`
//! then `add`, both into one `tensor.empty` shaped like the first operand.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::types::FloatKind;
use hivm_ir::{Ir, OpId, TypeData, ValueMap};

use crate::conversion::to_hfusion::{destinations, element, empty_like, enum_attr, named, replace};

pub(super) fn rewrite(ir: &mut Ir, op: OpId, keep: bool, map: &mut ValueMap) -> Result<bool, Diagnostic> {
    let ins = ir.operands(op).to_vec();
    let elem = element(ir, ir.value_type(ins[0]));
    let supported = matches!(ir.type_data(elem), TypeData::Float(FloatKind::F16 | FloatKind::BF16 | FloatKind::F32));
    if keep && supported {
        let Some(outs) = destinations(ir, op) else { return Ok(false) };
        let f = enum_attr(ir, "hfusion", "ternary_fn", "fma");
        let new = named(ir, op, "hfusion.elemwise_ternary", &ins, &outs, vec![("fun", f)])?;
        let results = ir.results(new).to_vec();
        replace(ir, op, &results, map);
        return Ok(true);
    }
    let empty = empty_like(ir, op, ins[0], elem);
    let mul = enum_attr(ir, "linalg", "binary_fn", "mul");
    let product = named(ir, op, "linalg.elemwise_binary", &ins[..2], &[empty], vec![("fun", mul)])?;
    let product = ir.results(product)[0];
    let add = enum_attr(ir, "linalg", "binary_fn", "add");
    let sum = named(ir, op, "linalg.elemwise_binary", &[product, ins[2]], &[empty], vec![("fun", add)])?;
    let results = ir.results(sum).to_vec();
    replace(ir, op, &results, map);
    Ok(true)
}
