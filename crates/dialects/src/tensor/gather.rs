//! `tensor.gather` and `tensor.scatter`: slices of a tensor at the
//! coordinates an index tensor lists along some of its dimensions
//! (`gather_dims` / `scatter_dims`). A gathered slice keeps the gathered
//! dimensions as 1s, or drops them (the rank-reduced form).

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, attr, one, opt_attr};
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::{i64_array, namer, type_str};

const GATHER: OpSpec = OpSpec {
    name: "tensor.gather",
    operands: &[one("source"), one("indices")],
    attrs: &[attr("gather_dims", AttrKind::I64Array), opt_attr("unique", AttrKind::Unit)],
    results: &[one("result")],
    format: "$source `[` $indices `]` `gather_dims` `(` $gather_dims `)` (`unique` $unique^)? attr-dict `:` \
             functional-type(operands, results)",
    traits: Traits::PURE,
    verify: Some(verify_gather),
    ..OpSpec::EMPTY
};

const SCATTER: OpSpec = OpSpec {
    name: "tensor.scatter",
    operands: &[one("source"), one("dest"), one("indices")],
    attrs: &[attr("scatter_dims", AttrKind::I64Array), opt_attr("unique", AttrKind::Unit)],
    results: &[one("result")],
    format: "$source `into` $dest `[` $indices `]` `scatter_dims` `(` $scatter_dims `)` (`unique` $unique^)? \
             attr-dict `:` functional-type(operands, results)",
    traits: Traits::PURE,
    verify: Some(verify_scatter),
    ..OpSpec::EMPTY
};

fn ranked(ir: &Ir, t: Type) -> Option<(&[i64], Type, Option<hivm_ir::Attribute>)> {
    match ir.type_data(t) {
        TypeData::RankedTensor { shape, elem, encoding } => Some((shape, *elem, *encoding)),
        _ => None,
    }
}

/// The operands' constraints: ranked tensors, the indices of integers or
/// indices.
fn check_types(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let n = ir.operands(op).len();
    for (i, &v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(v);
        let Some((_, elem, _)) = ranked(ir, t) else {
            let what = if i + 1 == n {
                "ranked tensor of signless integer or index values"
            } else {
                "ranked tensor of any type values"
            };
            return Err(format!("operand #{i} must be {what}, but got '{}'", type_str(ir, t)).into());
        };
        if i + 1 == n
            && !matches!(
                ir.type_data(elem),
                TypeData::Index | TypeData::Integer { signedness: hivm_ir::types::Signedness::Signless, .. }
            )
        {
            let t = type_str(ir, t);
            return Err(format!(
                "operand #{i} must be ranked tensor of signless integer or index values, but got '{t}'"
            )
            .into());
        }
    }
    Ok(())
}

/// `verifyGatherOrScatterDims`: `which` is "gather" or "scatter", `of`
/// "source" or "dest".
fn check_dims(dims: &[i64], indices: &[i64], rank: usize, which: &str, of: &str) -> Result<(), VerifyError> {
    if dims.is_empty() {
        return Err(format!("{which}_dims must be non-empty").into());
    }
    if dims.len() > rank {
        return Err(format!("{which}_dims overflow {of} rank").into());
    }
    if indices.last() != Some(&(dims.len() as i64)) {
        return Err(format!("{which}_dims length must match the size of last dimension of indices").into());
    }
    for &d in dims {
        if d < 0 {
            return Err(format!("{which}_dims value must be non-negative").into());
        }
        if d as usize >= rank {
            return Err(format!("{which}_dims value must be smaller than {of} rank").into());
        }
    }
    if dims.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("{which}_dims values must be strictly increasing").into());
    }
    Ok(())
}

/// The gathered slices' shape: the indices' leading dimensions, then the
/// tensor's, gathered ones as 1 (or dropped when `reduced`).
fn slices_shape(shape: &[i64], indices: &[i64], dims: &[i64], reduced: bool) -> Vec<i64> {
    let mut out = indices[..indices.len().saturating_sub(1)].to_vec();
    for (i, d) in shape.iter().enumerate() {
        if dims.contains(&(i as i64)) {
            if !reduced {
                out.push(1);
            }
        } else {
            out.push(*d);
        }
    }
    out
}

/// `what` (the gather's result, the scatter's source) must be the slices'
/// type, full or rank-reduced.
fn check_slices(ir: &Ir, tensor: Type, indices: &[i64], dims: &[i64], what: (&str, Type)) -> Result<(), VerifyError> {
    let Some((shape, elem, encoding)) = ranked(ir, tensor) else { return Ok(()) };
    let (full, reduced) = (slices_shape(shape, indices, dims, false), slices_shape(shape, indices, dims, true));
    let matches = |s: &[i64]| *ir.type_data(what.1) == TypeData::RankedTensor { shape: s.to_vec(), elem, encoding };
    if matches(&full) || matches(&reduced) {
        return Ok(());
    }
    let text = |s: &[i64]| hivm_ir::printer::shaped_type_string(ir, "tensor", s, elem, None, None);
    Err(format!(
        "{} type mismatch: expected '{}' or its rank-reduced variant '{}' (got: '{}')",
        what.0,
        text(&full),
        text(&reduced),
        type_str(ir, what.1)
    )
    .into())
}

fn verify_gather(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_types(ir, op)?;
    let (source, indices) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let Some((indices, _, _)) = ranked(ir, indices) else { return Ok(()) };
    let dims = i64_array(ir, op, "gather_dims");
    check_dims(&dims, indices, ir.type_data(source).rank(), "gather", "source")?;
    check_slices(ir, source, indices, &dims, ("result", ir.value_type(ir.result(op, 0))))
}

fn verify_scatter(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_types(ir, op)?;
    let (source, dest) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let Some((indices, _, _)) = ranked(ir, ir.value_type(ir.operand(op, 2))) else { return Ok(()) };
    let dims = i64_array(ir, op, "scatter_dims");
    check_dims(&dims, indices, ir.type_data(dest).rank(), "scatter", "dest")?;
    if ir.get_attr(op, "unique").is_none() {
        return Err("requires 'unique' attribute to be set".into());
    }
    check_slices(ir, dest, indices, &dims, ("source", source))
}

namer!(gather_name, "gather");
namer!(scatter_name, "scatter");

pub(super) fn defs() -> Vec<OpDef> {
    vec![GATHER.def().names(gather_name), SCATTER.def().names(scatter_name)]
}
