//! Function signatures and calls: types that follow the body, external
//! declarations, callees.

use hivm_ir::{Attribute, Ir, OpId, Type, TypeData};

use super::types::{is_memref, space_attr, space_of, with_space};

pub(super) fn function_type(ir: &Ir, f: OpId) -> Option<TypeData> {
    ir.get_attr(f, "function_type").and_then(|a| ir.as_type(a)).map(|t| ir.type_data(t).clone())
}

pub(super) fn set_function_type(ir: &mut Ir, f: OpId, inputs: Vec<Type>, results: Vec<Type>) {
    let ft = ir.function_type(inputs, results);
    let a = ir.type_attr(ft);
    ir.set_attr(f, "function_type", a);
}

pub(super) fn symbol_name(ir: &Ir, a: Attribute) -> Option<String> {
    match ir.attr_data(a) {
        hivm_ir::AttrData::SymbolRef { root, nested } if nested.is_empty() => Some(ir.sym_str(*root).to_string()),
        _ => None,
    }
}

pub(super) fn callee(ir: &Ir, root: OpId, call: OpId) -> Option<OpId> {
    let name = ir.get_attr(call, "callee").and_then(|a| symbol_name(ir, a))?;
    hivm_ir::builder::lookup_symbol_in(ir, root, &name)
}

/// External device functions: memrefs without a space are in GM.
pub(super) fn extern_function(ir: &mut Ir, f: OpId) {
    let Some(TypeData::Function { inputs, results }) = function_type(ir, f) else { return };
    let gm = space_attr(ir, "gm");
    let fix = |ir: &mut Ir, ts: Vec<Type>| -> Vec<Type> {
        ts.into_iter()
            .map(|t| if is_memref(ir, t) && space_of(ir, t).is_none() { with_space(ir, t, gm) } else { t })
            .collect()
    };
    let (inputs, results) = (fix(ir, inputs), fix(ir, results));
    set_function_type(ir, f, inputs, results);
}

/// A HOST function's type follows its parameters and its return.
pub(super) fn host_signature(ir: &mut Ir, f: OpId) {
    let Some(body) = ir.regions(f).first().and_then(|r| ir.region_blocks(*r).first().copied()) else { return };
    let inputs: Vec<Type> = ir.block_args(body).iter().map(|a| ir.value_type(*a)).collect();
    let mut ret = None;
    ir.walk(f, &mut |o| {
        if ir.is_op(o, "func.return") && ir.parent_op(o) == Some(f) {
            ret = Some(o);
        }
    });
    let Some(ret) = ret else { return };
    let results = ir.operands(ret).iter().map(|v| ir.value_type(*v)).collect();
    set_function_type(ir, f, inputs, results);
}
