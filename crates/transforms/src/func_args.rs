//! Editing a `func.func`'s arguments as MLIR's `FunctionOpInterface` does:
//! the entry block, `function_type` and `arg_attrs` change together, so a
//! pass never leaves the three disagreeing.

use hivm_ir::{Attribute, Ir, OpId, Type, Value};

/// The per-argument attribute dictionaries, one per argument (empty ones
/// filled in).
pub fn arg_attr_dicts(ir: &mut Ir, func: OpId) -> Vec<Attribute> {
    let n = hivm_dialects::func::func_signature(ir, func).0.len();
    let mut dicts: Vec<Attribute> =
        ir.get_attr(func, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let empty = ir.empty_dict();
    dicts.resize(n, empty);
    dicts
}

/// Stores `dicts` as `arg_attrs`, dropping the attribute when all are empty
/// (as MLIR prints a function without argument attributes).
fn store_arg_attr_dicts(ir: &mut Ir, func: OpId, dicts: Vec<Attribute>) {
    let empty = ir.empty_dict();
    if dicts.iter().all(|d| *d == empty) {
        ir.remove_attr(func, "arg_attrs");
    } else {
        let a = ir.array_attr(dicts);
        ir.set_attr(func, "arg_attrs", a);
    }
}

/// The attribute `name` of argument `idx`.
pub fn arg_attr(ir: &Ir, func: OpId, idx: usize, name: &str) -> Option<Attribute> {
    let dicts = ir.get_attr(func, "arg_attrs").and_then(|a| ir.as_array(a))?;
    let d = *dicts.get(idx)?;
    let key = ir.lookup_sym(name)?;
    ir.dict_entries(d).iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// Sets the attribute `name` of argument `idx` (MLIR's `setArgAttr`).
pub fn set_arg_attr(ir: &mut Ir, func: OpId, idx: usize, name: &str, value: Attribute) {
    let mut dicts = arg_attr_dicts(ir, func);
    if idx >= dicts.len() {
        return;
    }
    let key = ir.sym(name);
    let mut entries = ir.dict_entries(dicts[idx]).to_vec();
    match entries.iter_mut().find(|(k, _)| *k == key) {
        Some(e) => e.1 = value,
        None => entries.push((key, value)),
    }
    dicts[idx] = ir.dict_attr(entries);
    store_arg_attr_dicts(ir, func, dicts);
}

/// Replaces all attributes of argument `idx` (MLIR's `setArgAttrs`).
pub fn set_arg_attrs(ir: &mut Ir, func: OpId, idx: usize, entries: Vec<(&str, Attribute)>) {
    let mut dicts = arg_attr_dicts(ir, func);
    if idx >= dicts.len() {
        return;
    }
    let entries = entries.into_iter().map(|(k, v)| (ir.sym(k), v)).collect();
    dicts[idx] = ir.dict_attr(entries);
    store_arg_attr_dicts(ir, func, dicts);
}

/// Inserts an argument of type `ty` with attributes `dict` at `pos`
/// (MLIR's `insertArgument`); returns the new block argument, if the
/// function has a body.
pub fn insert_argument(
    ir: &mut Ir,
    func: OpId,
    pos: usize,
    ty: Type,
    dict: Attribute,
    loc: Option<Attribute>,
) -> Option<Value> {
    let (mut inputs, results) = hivm_dialects::func::func_signature(ir, func);
    let mut dicts = arg_attr_dicts(ir, func);
    let pos = pos.min(inputs.len());
    inputs.insert(pos, ty);
    dicts.insert(pos, dict);
    let fty = ir.function_type(inputs, results);
    let fty = ir.type_attr(fty);
    ir.set_attr(func, "function_type", fty);
    store_arg_attr_dicts(ir, func, dicts);
    let entry = *ir.region_blocks(*ir.regions(func).first()?).first()?;
    Some(ir.insert_block_arg(entry, pos, ty, loc))
}

/// The index of `v` among `func`'s entry-block arguments.
pub fn argument_index(ir: &Ir, func: OpId, v: Value) -> Option<usize> {
    let entry = *ir.region_blocks(*ir.regions(func).first()?).first()?;
    ir.block_args(entry).iter().position(|a| *a == v)
}
