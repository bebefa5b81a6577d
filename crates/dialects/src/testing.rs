//! MLIR's `test` dialect, which bishengir's tools link for their tests: it
//! accepts any op (`"test.consume"(%x) : (T) -> ()`), in generic form, as
//! MLIR's does with `allowUnknownOperations`, and knows the custom syntax of
//! the one op upstream's tests write in it, `test.destination_style_op`.

use hivm_ir::opspec::{OpSpec, ValueDef, var};
use hivm_ir::{Dialect, Ir, OpId, TypeData};

/// `test.destination_style_op {attrs} ins(%a : A) outs(%b : B) (%c : C) -> R`:
/// a destination-style op with no semantics of its own.
const DESTINATION_STYLE: OpSpec = OpSpec {
    name: "test.destination_style_op",
    operands: &[var("inputs"), var("outputs"), var("other_operands")],
    results: RESULTS,
    segments: true,
    format: "attr-dict (`ins` `(` $inputs^ `:` type($inputs) `)`)? (`outs` `(` $outputs^ `:` type($outputs) `)`)? \
             (`(` $other_operands^ `:` type($other_operands) `)`)? (`->` type($results)^)?",
    verify: Some(verify_destination_style),
    ..OpSpec::EMPTY
};

const RESULTS: &[ValueDef] = &[var("results")];

/// MLIR's `DestinationStyleOpInterface` checks: inits are tensors or
/// memrefs, and each tensor init has a result of its type.
fn verify_destination_style(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let segments = crate::util::segments(ir, op);
    let (first, count) = (segments.first().copied().unwrap_or(0), segments.get(1).copied().unwrap_or(0));
    let is_tensor = |t| matches!(ir.type_data(t), TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. });
    let is_memref = |t| matches!(ir.type_data(t), TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. });
    let mut tensor_inits = Vec::new();
    for i in first..first + count {
        let t = ir.value_type(ir.operand(op, i));
        if is_tensor(t) {
            tensor_inits.push(i);
        } else if !is_memref(t) {
            return Err(format!("expected that operand #{i} is a tensor or a memref").into());
        }
    }
    let tensor_results: Vec<_> = ir.results(op).iter().filter(|r| is_tensor(ir.value_type(**r))).collect();
    if tensor_results.len() != tensor_inits.len() {
        return Err(format!(
            "expected the number of tensor results ({}) to be equal to the number of output tensors ({})",
            tensor_results.len(),
            tensor_inits.len()
        )
        .into());
    }
    for (i, r) in tensor_inits.iter().zip(tensor_results) {
        let (a, b) = (ir.value_type(ir.operand(op, *i)), ir.value_type(*r));
        if a != b {
            return Err(format!(
                "expected type of operand #{i} ('{}') to match type of corresponding result ('{}')",
                crate::util::type_str(ir, a),
                crate::util::type_str(ir, b)
            )
            .into());
        }
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("test", vec![DESTINATION_STYLE.def()]);
    d.allow_unknown_ops = true;
    d
}
