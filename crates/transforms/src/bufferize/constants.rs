//! `arith.constant` on tensors, as MLIR bufferizes it: the value becomes a
//! private constant `memref.global` at the start of the module (one per
//! distinct value, named `__constant_<shape>x<element>`, with `_N` added
//! when the name is taken), read through `memref.get_global`.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, Ir, OpId, Type, TypeData};

/// MLIR's default buffer alignment, which the globals carry.
const ALIGNMENT: i128 = 64;

/// The global holding constant `op`'s value (made if the module has none
/// yet), its name and memref type. `counter` is the module symbol table's
/// renaming counter, shared by every name it makes unique.
pub fn global_for(ir: &mut Ir, op: OpId, counter: &mut u32) -> Result<(String, Type), Diagnostic> {
    let t = ir.value_type(ir.result(op, 0));
    let Some(value) = ir.get_attr(op, "value") else {
        return Err(super::unsupported(ir, op, "has no value"));
    };
    let TypeData::RankedTensor { shape, elem, encoding: None } = ir.type_data(t).clone() else {
        return Err(super::unsupported(ir, op, "is not a ranked tensor without an encoding"));
    };
    let module = ir.top_ancestor(op);
    let Some(body) = ir.regions(module).first().and_then(|r| ir.region_blocks(*r).first().copied()) else {
        return Err(super::unsupported(ir, op, "is not inside a module"));
    };
    let i64t = ir.int_type(64);
    let alignment = ir.int_attr(ALIGNMENT, i64t);
    let name_of = |ir: &Ir, g: OpId| ir.get_attr(g, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("").to_string();
    let mut names = Vec::new();
    for g in ir.block_ops(body).collect::<Vec<_>>() {
        names.push(name_of(ir, g));
        if ir.is_op(g, "memref.global")
            && ir.get_attr(g, "initial_value") == Some(value)
            && ir.get_attr(g, "alignment") == Some(alignment)
            && let Some(gt) = ir.get_attr(g, "type").and_then(|a| ir.as_type(a))
        {
            return Ok((name_of(ir, g), gt));
        }
    }
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let base = format!("__constant_{}x{}", dims.join("x"), hivm_ir::printer::type_to_string(ir, elem));
    let mut name = base.clone();
    while names.contains(&name) {
        name = format!("{base}_{counter}");
        *counter += 1;
    }
    let mt = ir.ty(TypeData::MemRef { shape, elem, layout: None, memory_space: None });
    let loc = ir.loc(op);
    let attrs = vec![
        ("sym_visibility", ir.attr(AttrData::String { value: b"private".to_vec(), ty: None })),
        ("constant", ir.attr(AttrData::Unit)),
        ("sym_name", ir.str_attr(&name)),
        ("type", ir.type_attr(mt)),
        ("initial_value", value),
        ("alignment", alignment),
    ];
    let ip = InsertPoint::start(ir, body);
    Builder::new(ir, ip).op("memref.global", &[], &[], attrs, loc);
    Ok((name, mt))
}
