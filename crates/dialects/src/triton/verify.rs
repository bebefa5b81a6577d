//! Checks the Triton ops share: type constraints on named operands and
//! results (ODS's "operand #N must be ..."), and Triton's shape, encoding
//! and element-type traits.

use hivm_ir::dialect::VerifyError;
use hivm_ir::{Attribute, Ir, OpId, Type, Value};

use super::types::{C, tensor, text_of};

/// The values of the operand or result group called `name` (empty when
/// there is none), with the flat index of the first and whether they are
/// operands.
fn group<'a>(ir: &'a Ir, op: OpId, name: &str) -> Option<(&'a [Value], usize, bool)> {
    let c = ir.op_def(op).and_then(|d| d.spec)?;
    if let Some(i) = c.operand_index(name) {
        let start = (0..i).map(|j| c.operand_group(ir, op, j).len()).sum();
        return Some((c.operand_group(ir, op, i), start, true));
    }
    let i = c.spec.results.iter().position(|r| r.name == name)?;
    let start = (0..i).map(|j| c.result_group(ir, op, j).len()).sum();
    Some((c.result_group(ir, op, i), start, false))
}

/// The values of a named group.
pub(crate) fn values<'a>(ir: &'a Ir, op: OpId, name: &str) -> &'a [Value] {
    group(ir, op, name).map_or(&[], |(v, _, _)| v)
}

/// The type of the one value of a named group.
pub(crate) fn type_of(ir: &Ir, op: OpId, name: &str) -> Option<Type> {
    values(ir, op, name).first().map(|v| ir.value_type(*v))
}

/// Each named group's values satisfy their constraint.
pub(crate) fn constrain(ir: &Ir, op: OpId, checks: &[(&str, C)]) -> Result<(), VerifyError> {
    for (name, c) in checks {
        let Some((vals, start, operand)) = group(ir, op, name) else { continue };
        for (k, v) in vals.iter().enumerate() {
            let t = ir.value_type(*v);
            if !c.holds(ir, t) {
                let what = if operand { "operand" } else { "result" };
                return Err(
                    format!("{what} #{} must be {}, but got '{}'", start + k, c.summary(), text_of(ir, t)).into()
                );
            }
        }
    }
    Ok(())
}

fn all_types(ir: &Ir, op: OpId) -> Vec<Type> {
    ir.operands(op).iter().chain(ir.results(op)).map(|v| ir.value_type(*v)).collect()
}

/// Shape of a tensor; scalars have none.
fn shape_of(ir: &Ir, t: Type) -> Option<Vec<i64>> {
    tensor(ir, t).map(|(s, _, _)| s.to_vec())
}

/// MLIR's `SameOperandsAndResultShape`.
pub(crate) fn same_shape(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let shapes: Vec<Option<Vec<i64>>> = all_types(ir, op).iter().map(|t| shape_of(ir, *t)).collect();
    if shapes.windows(2).any(|w| w[0] != w[1]) {
        return Err("requires the same shape for all operands and results".into());
    }
    Ok(())
}

/// Triton's `SameOperandsAndResultEncoding` (over the tensors among them).
pub(crate) fn same_encoding(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let encs: Vec<Option<Attribute>> =
        all_types(ir, op).iter().filter_map(|t| tensor(ir, *t)).map(|(_, _, e)| e).collect();
    if encs.windows(2).any(|w| w[0] != w[1]) {
        return Err("requires the same encoding for all operands and results".into());
    }
    Ok(())
}

/// MLIR's `SameOperandsAndResultElementType`.
pub(crate) fn same_element_type(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let elems: Vec<Type> = all_types(ir, op).iter().map(|t| super::types::scalar_of(ir, *t)).collect();
    if elems.windows(2).any(|w| w[0] != w[1]) {
        return Err("requires the same element type for all operands and results".into());
    }
    Ok(())
}

/// An `i32` attribute's value.
pub(crate) fn int_attr(ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    crate::util::int_attr(ir, op, name).map(|v| v as i64)
}

/// A dense `i32` array attribute's values.
pub(crate) fn i32_array(ir: &Ir, op: OpId, name: &str) -> Option<Vec<i64>> {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.clone()),
        _ => None,
    }
}

/// Whether `order` is a permutation of `0..rank`.
pub(crate) fn is_permutation(order: &[i64], rank: usize) -> bool {
    let mut seen = vec![false; rank];
    order.len() == rank
        && order.iter().all(|&d| match seen.get_mut(d as usize) {
            Some(s) if d >= 0 && !*s => {
                *s = true;
                true
            }
            _ => false,
        })
}

/// `[1, 2]` for messages.
pub(crate) fn dims(v: &[i64]) -> String {
    crate::triton_gpu::text::list_text(v)
}
