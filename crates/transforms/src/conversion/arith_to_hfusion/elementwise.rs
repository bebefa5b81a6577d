//! One arith op, one named op: the arithmetic ops linalg names, the ones
//! only hfusion has, `mul{si,ui}_extended` and splat constants.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, OpId, TypeData};

use super::Cx;
use crate::conversion::to_hfusion::{empty_like, enum_attr, on_tensors, replace, to_named_fn};

/// arith op -> `linalg.elemwise_binary`'s `#linalg.binary_fn`.
const LINALG_BINARY: &[(&str, &str)] = &[
    ("addf", "add"),
    ("addi", "add"),
    ("subf", "sub"),
    ("subi", "sub"),
    ("mulf", "mul"),
    ("muli", "mul"),
    ("divf", "div"),
    ("divsi", "div"),
    ("divui", "div_unsigned"),
    ("maxsi", "max_signed"),
    ("maxui", "max_unsigned"),
    ("minsi", "min_signed"),
    ("minui", "min_unsigned"),
];

/// arith op -> `hfusion.elemwise_binary`'s `#hfusion.binary_fn`.
const HFUSION_BINARY: &[(&str, &str)] = &[
    ("andi", "vand"),
    ("ori", "vor"),
    ("xori", "vxor"),
    ("minnumf", "minnumf"),
    ("minimumf", "minf"),
    ("maxnumf", "maxnumf"),
    ("maximumf", "maxf"),
    ("remf", "mod"),
    ("remsi", "mod"),
    ("remui", "modui"),
    ("shli", "shli"),
    ("shrsi", "shrsi"),
    ("shrui", "shrui"),
    ("floordivsi", "floordivsi"),
    ("ceildivsi", "ceildivsi"),
    ("ceildivui", "ceildivui"),
];

fn lookup(table: &[(&str, &'static str)], op: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == op).map(|(_, v)| *v)
}

/// `None` when `short` is not an op of this family.
pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, short: &str) -> Result<Option<bool>, Diagnostic> {
    if let Some(fun) = lookup(LINALG_BINARY, short) {
        let f = enum_attr(cx.ir, "linalg", "binary_fn", fun);
        return to_named_fn(cx.ir, op, "linalg.elemwise_binary", Some(f), cx.map).map(Some);
    }
    if short == "negf" {
        let f = enum_attr(cx.ir, "linalg", "unary_fn", "negf");
        return to_named_fn(cx.ir, op, "linalg.elemwise_unary", Some(f), cx.map).map(Some);
    }
    if let Some(fun) = lookup(HFUSION_BINARY, short) {
        let f = enum_attr(cx.ir, "hfusion", "binary_fn", fun);
        return to_named_fn(cx.ir, op, "hfusion.elemwise_binary", Some(f), cx.map).map(Some);
    }
    match short {
        "mulsi_extended" => Ok(Some(mul_extended(cx, op, "hfusion.mulext"))),
        "mului_extended" => Ok(Some(mul_extended(cx, op, "hfusion.mulextui"))),
        "constant" => Ok(Some(splat_constant(cx, op))),
        _ => Ok(None),
    }
}

/// The low and high halves of the product, as `hfusion.mulext{,ui}`.
fn mul_extended(cx: &mut Cx<'_>, op: OpId, name: &str) -> bool {
    let ir = &mut *cx.ir;
    let (ops, loc) = (ir.operands(op).to_vec(), ir.loc(op));
    let t = ir.value_type(ir.results(op)[0]);
    let new = Builder::new(ir, InsertPoint::Before(op)).op(name, &ops, &[t, t], Vec::new(), loc);
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, cx.map);
    true
}

/// A splat tensor constant: `tensor.empty`, the scalar constant, and a
/// `linalg.fill` of one with the other (non-splat constants are legal).
fn splat_constant(cx: &mut Cx<'_>, op: OpId) -> bool {
    let ir = &mut *cx.ir;
    if !on_tensors(ir, op) {
        return false;
    }
    let result = ir.results(op)[0];
    let ty = ir.value_type(result);
    let TypeData::RankedTensor { elem, .. } = *ir.type_data(ty) else { return false };
    let Some(value) = ir.get_attr(op, "value") else { return false };
    let scalar = match ir.attr_data(value) {
        AttrData::DenseElements { splat: true, elems, .. } => match elems.first() {
            Some(hivm_ir::attrs::DenseElem::Int(i)) => {
                let i = *i;
                ir.int_attr(i, elem)
            }
            Some(hivm_ir::attrs::DenseElem::Float(bits)) => {
                let bits = *bits as u128;
                ir.attr(AttrData::Float { bits, ty: elem })
            }
            _ => return false,
        },
        _ => return false,
    };
    let loc = ir.loc(op);
    let empty = empty_like(ir, op, result, elem);
    let c = Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[elem], vec![("value", scalar)], loc);
    let c = ir.result(c, 0);
    let Some(filled) = hivm_dialects::linalg::build_fill(ir, InsertPoint::Before(op), c, empty, loc) else {
        return false;
    };
    replace(ir, op, &[filled], cx.map);
    true
}
