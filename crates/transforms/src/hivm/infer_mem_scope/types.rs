//! Memory spaces on memref types.

use hivm_dialects::util::opaque_attr;
use hivm_ir::{Attribute, Ir, Type, TypeData, Value};

pub(super) fn space_attr(ir: &mut Ir, space: &str) -> Attribute {
    opaque_attr(ir, "hivm", &format!("address_space<{space}>"))
}

pub(super) fn is_memref(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. })
}

pub(super) fn space_of(ir: &Ir, t: Type) -> Option<Attribute> {
    match ir.type_data(t) {
        TypeData::MemRef { memory_space, .. } | TypeData::UnrankedMemRef { memory_space, .. } => *memory_space,
        _ => None,
    }
}

pub(super) fn with_space(ir: &mut Ir, t: Type, space: Attribute) -> Type {
    let mut d = ir.type_data(t).clone();
    match &mut d {
        TypeData::MemRef { memory_space, .. } | TypeData::UnrankedMemRef { memory_space, .. } => {
            *memory_space = Some(space)
        }
        _ => return t,
    }
    ir.ty(d)
}

pub(super) fn set_space(ir: &mut Ir, v: Value, space: Attribute) {
    let t = ir.value_type(v);
    let n = with_space(ir, t, space);
    ir.set_value_type(v, n);
}
