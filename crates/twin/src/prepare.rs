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

/// Rewrites each `tensor.reshape` to a static shape (triton-to-linalg's
/// `tt.reshape`) as a collapse to one dimension and an expand to the new
/// shape, which bufferization handles as views; its shape operand is then
/// dropped if nothing else uses it.
pub fn static_reshapes(ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
    let mut reshapes = Vec::new();
    ir.walk(module, &mut |o| {
        if ir.is_op(o, "tensor.reshape") {
            reshapes.push(o);
        }
    });
    for op in reshapes {
        let (src, shape_operand) = (ir.operand(op, 0), ir.operand(op, 1));
        let res = ir.result(op, 0);
        let (st, rt) = (ir.value_type(src), ir.value_type(res));
        let (Some(from), Some(to)) =
            (ir.type_data(st).shape().map(|s| s.to_vec()), ir.type_data(rt).shape().map(|s| s.to_vec()))
        else {
            return Err(reshape_unsupported(ir, op));
        };
        if from.iter().chain(&to).any(|d| *d < 0) {
            return Err(reshape_unsupported(ir, op));
        }
        let elem = ir.type_data(st).element_type().expect("a tensor");
        let loc = ir.loc(op);
        let n: i64 = from.iter().product();
        let flat_t = ir.ty(TypeData::RankedTensor { shape: vec![n], elem, encoding: None });
        let group = |rank: usize| -> String {
            format!("[[{}]]", (0..rank).map(|d| d.to_string()).collect::<Vec<_>>().join(", "))
        };
        let mut v = src;
        if from.len() != 1 {
            let r = attr(ir, &group(from.len()));
            let c = Builder::new(ir, InsertPoint::Before(op)).op(
                "tensor.collapse_shape",
                &[v],
                &[flat_t],
                vec![("reassociation", r)],
                loc,
            );
            v = ir.result(c, 0);
        }
        if to.len() != 1 {
            let r = attr(ir, &group(to.len()));
            let out = hivm_dialects::util::i64_array_attr(ir, &to);
            let e = Builder::new(ir, InsertPoint::Before(op)).op(
                "tensor.expand_shape",
                &[v],
                &[rt],
                vec![("reassociation", r), ("static_output_shape", out)],
                loc,
            );
            v = ir.result(e, 0);
        }
        ir.replace_all_uses_in(module, res, v);
        ir.erase_op(op);
        if let Some(c) = ir.defining_op(shape_operand) {
            let mut used = false;
            ir.walk(module, &mut |o| used |= ir.operands(o).contains(&shape_operand));
            if !used && ir.is_op(c, "arith.constant") {
                ir.erase_op(c);
            }
        }
    }
    Ok(())
}

fn attr(ir: &mut Ir, text: &str) -> hivm_ir::Attribute {
    let owned = text.to_string();
    let mut p = hivm_ir::parser::Parser::new(ir, &owned, "<reassociation>", 1);
    p.parse_attribute(None).expect("a reassociation")
}

fn reshape_unsupported(ir: &Ir, op: OpId) -> Diagnostic {
    Diagnostic::error(ir.loc(op), "'tensor.reshape' to a dynamic shape is not supported by the CPU twin yet")
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
