//! The unit-dimension views a broadcast's input and a reduction's inits
//! need: HIVM's `vbrc` and `vreduce` keep the rank, linalg's ops drop the
//! broadcast or reduced dimensions.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Attribute, Ir, OpId, Type, TypeData, Value};

/// Upstream's `getReAssociation`: the groups of an `outRank`-dimensional
/// shape that fold back to a shape without the `units` dimensions (a unit
/// joins the kept dimension before it; leading units the first kept one).
pub(super) fn reassociation(units: &[i64], out_rank: i64) -> Vec<Vec<i64>> {
    let mut groups = Vec::new();
    let mut group = Vec::new();
    let mut i = 0;
    while i < out_rank && units.contains(&i) {
        group.push(i);
        i += 1;
    }
    while i < out_rank {
        group.push(i);
        if !units.contains(&(i + 1)) {
            groups.push(std::mem::take(&mut group));
        }
        i += 1;
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

fn groups_attr(ir: &mut Ir, groups: &[Vec<i64>]) -> Attribute {
    let i64t = ir.int_type(64);
    let items = groups
        .iter()
        .map(|g| {
            let dims = g.iter().map(|d| ir.int_attr(*d as i128, i64t)).collect();
            ir.array_attr(dims)
        })
        .collect();
    ir.array_attr(items)
}

/// Upstream's `getExpandShapeOpResType`: `t` with a unit dimension
/// inserted at each of `units`; a strided memref's new dimension takes the
/// stride of the one before it (the first, its size times its stride).
fn expanded_type(ir: &mut Ir, t: Type, units: &[i64]) -> Option<Type> {
    let data = ir.type_data(t).clone();
    let mut shape = data.shape()?.to_vec();
    for &d in units {
        shape.insert(usize::try_from(d).ok()?.min(shape.len()), 1);
    }
    Some(match data {
        TypeData::RankedTensor { elem, encoding, .. } => ir.ty(TypeData::RankedTensor { shape, elem, encoding }),
        TypeData::MemRef { shape: old_shape, elem, layout, memory_space } => {
            let layout = match layout.map(|l| ir.attr_data(l).clone()) {
                Some(AttrData::Strided { mut strides, offset }) => {
                    for &d in units {
                        let d = d as usize;
                        let stride = if d == 0 {
                            match (old_shape.first(), strides.first()) {
                                (Some(&n), Some(&s)) if n != DYNAMIC && s != DYNAMIC => n * s,
                                _ => DYNAMIC,
                            }
                        } else {
                            *strides.get(d - 1)?
                        };
                        strides.insert(d.min(strides.len()), stride);
                    }
                    Some(ir.attr(AttrData::Strided { strides, offset }))
                }
                _ => None,
            };
            ir.ty(TypeData::MemRef { shape, elem, layout, memory_space })
        }
        _ => return None,
    })
}

/// The `expand_shape` (tensor or memref, as `src`) inserting unit
/// dimensions at `units`, built before `at`; `out_rank` is the rank of
/// the expanded shape (0 for a rank-0 source). Dynamic sizes are read from
/// the source as MLIR's builder does. `None` for an unshaped source.
pub(super) fn expand(ir: &mut Ir, at: OpId, src: Value, units: &[i64], out_rank: i64) -> Option<Value> {
    let st = ir.value_type(src);
    let tensor = ir.type_data(st).is_tensor();
    let src_shape = ir.type_data(st).shape()?.to_vec();
    let rt = expanded_type(ir, st, units)?;
    let out_rank = if src_shape.is_empty() { 0 } else { out_rank };
    let groups = reassociation(units, out_rank);
    let loc = ir.loc(at);
    let index = ir.index_type();
    let dim_op = if tensor { "tensor.dim" } else { "memref.dim" };
    let mut sizes = Vec::new();
    for (d, n) in src_shape.iter().enumerate() {
        if *n == DYNAMIC {
            let c = ir.int_attr(d as i128, index);
            let c =
                Builder::new(ir, InsertPoint::Before(at)).op("arith.constant", &[], &[index], vec![("value", c)], loc);
            let c = ir.result(c, 0);
            let dim = Builder::new(ir, InsertPoint::Before(at)).op(dim_op, &[src, c], &[index], vec![], loc);
            sizes.push(ir.result(dim, 0));
        }
    }
    let static_shape = ir.type_data(rt).shape().map(<[i64]>::to_vec).unwrap_or_default();
    let reassociation = groups_attr(ir, &groups);
    let out = hivm_dialects::util::i64_array_attr(ir, &static_shape);
    let mut operands = vec![src];
    operands.extend(sizes);
    let name = if tensor { "tensor.expand_shape" } else { "memref.expand_shape" };
    let attrs = vec![("reassociation", reassociation), ("static_output_shape", out)];
    let e = Builder::new(ir, InsertPoint::Before(at)).op(name, &operands, &[rt], attrs, loc);
    Some(ir.result(e, 0))
}

/// The `collapse_shape` of `src` to `to` by `groups`, before `at`.
pub(super) fn collapse(ir: &mut Ir, at: OpId, src: Value, to: Type, groups: &[Vec<i64>]) -> Value {
    let tensor = ir.type_data(ir.value_type(src)).is_tensor();
    let name = if tensor { "tensor.collapse_shape" } else { "memref.collapse_shape" };
    let reassociation = groups_attr(ir, groups);
    let loc = ir.loc(at);
    let c =
        Builder::new(ir, InsertPoint::Before(at)).op(name, &[src], &[to], vec![("reassociation", reassociation)], loc);
    ir.result(c, 0)
}

#[cfg(test)]
mod tests {
    use super::reassociation;

    #[test]
    fn groups_fold_units_into_their_neighbours() {
        assert_eq!(reassociation(&[1], 3), vec![vec![0, 1], vec![2]]);
        assert_eq!(reassociation(&[0, 1, 3], 5), vec![vec![0, 1, 2, 3], vec![4]]);
        assert_eq!(reassociation(&[7], 8), vec![vec![0], vec![1], vec![2], vec![3], vec![4], vec![5], vec![6, 7]]);
        assert!(reassociation(&[0, 1], 0).is_empty());
    }
}
