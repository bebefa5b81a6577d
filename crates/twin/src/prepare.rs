//! Bringing a tensor-level kernel to the memrefs the interpreter runs, in
//! the order the device pipeline does it: arith/math on tensors become
//! `linalg.generic` (`convert-elementwise-to-linalg`), splat tensor
//! constants become `tensor.empty` + `linalg.fill` (what triton-to-linalg
//! makes of them anyway; MLIR would bufferize them to a global), then
//! `one-shot-bufferize`.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, Ir, OpId, TypeData};

/// Whether any op of `module` takes or makes a tensor.
pub fn has_tensors(ir: &Ir, module: OpId) -> bool {
    let mut any = false;
    ir.walk(module, &mut |o| {
        any |= ir.operands(o).iter().chain(ir.results(o)).any(|v| ir.type_data(ir.value_type(*v)).is_tensor());
    });
    any
}

/// The passes a tensor-level kernel needs before the rest of the pipeline.
pub fn tensor_passes() -> [&'static str; 2] {
    ["convert-elementwise-to-linalg", "one-shot-bufferize"]
}

/// Replaces each `arith.constant dense<x> : tensor<...>` splat by an empty
/// tensor filled with `x`; other tensor constants are an error at the op.
pub fn materialize_splat_constants(ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
    let mut constants = Vec::new();
    ir.walk(module, &mut |o| {
        if ir.is_op(o, "arith.constant") && ir.results(o).len() == 1 {
            let t = ir.value_type(ir.result(o, 0));
            if ir.type_data(t).is_tensor() {
                constants.push(o);
            }
        }
    });
    let mut replaced = hivm_ir::ValueMap::default();
    for op in constants {
        let res = ir.result(op, 0);
        let t = ir.value_type(res);
        let loc = ir.loc(op);
        let TypeData::RankedTensor { elem, .. } = ir.type_data(t).clone() else {
            return Err(unsupported(ir, op));
        };
        let scalar = match ir.get_attr(op, "value").map(|a| ir.attr_data(a).clone()) {
            Some(AttrData::DenseElements { splat: true, elems, .. }) => match elems.first() {
                Some(hivm_ir::attrs::DenseElem::Int(v)) => ir.int_attr(*v, elem),
                Some(hivm_ir::attrs::DenseElem::Float(bits)) => {
                    ir.attr(AttrData::Float { bits: *bits as u128, ty: elem })
                }
                _ => return Err(unsupported(ir, op)),
            },
            _ => return Err(unsupported(ir, op)),
        };
        let mut b = Builder::new(ir, InsertPoint::Before(op));
        let c = b.op("arith.constant", &[], &[elem], vec![("value", scalar)], loc);
        let empty = b.op("tensor.empty", &[], &[t], vec![], loc);
        let (c, empty) = (ir.result(c, 0), ir.result(empty, 0));
        let fill = hivm_dialects::linalg::build_fill(ir, InsertPoint::Before(op), c, empty, loc);
        replaced.insert(res, fill.expect("a tensor init gives a result"));
        ir.erase_op(op);
    }
    ir.replace_uses_with_map(module, &replaced);
    Ok(())
}

fn unsupported(ir: &Ir, op: OpId) -> Diagnostic {
    Diagnostic::error(
        ir.loc(op),
        "'arith.constant' with a tensor that is not a splat is not supported by the CPU twin yet",
    )
}
