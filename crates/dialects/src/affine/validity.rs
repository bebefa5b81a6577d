//! Which values an affine op may take as dimensions and as symbols (MLIR's
//! `isValidDim` / `isValidSymbol`), relative to the op's affine scope: the
//! region of the closest enclosing op with the `AffineScope` trait
//! (`func.func`, `test.affine_scope`, ...).
//!
//! A symbol is a value the scope fixes: one defined at the scope's top
//! level, a constant, the result of a pure op on symbols, a `dim` of a
//! buffer whose size is itself a symbol, or a value dominating the scope.
//! A dimension is additionally an affine loop's induction variable, or an
//! `affine.apply` (or (de)linearize) of dimensions.

use hivm_ir::dialect::VerifyError;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, RegionId, Traits, TypeData, Value, ValueDef};

fn is_index(ir: &Ir, v: Value) -> bool {
    matches!(ir.type_data(ir.value_type(v)), TypeData::Index)
}

fn has(ir: &Ir, op: OpId, t: Traits) -> bool {
    ir.op_def(op).is_some_and(|d| d.has(t))
}

/// The region of `op`'s closest ancestor with the `AffineScope` trait that
/// holds `op` (MLIR's `getAffineScope`).
pub(super) fn affine_scope(ir: &Ir, op: OpId) -> Option<RegionId> {
    let mut cur = op;
    while let Some(parent) = ir.parent_op(cur) {
        if has(ir, parent, Traits::AFFINE_SCOPE) {
            return ir.parent_region(cur);
        }
        cur = parent;
    }
    None
}

/// The region a value is defined in (its block's region).
fn defining_region(ir: &Ir, v: Value) -> Option<RegionId> {
    match ir.value_def(v) {
        ValueDef::BlockArg { block, .. } => ir.block_parent(block),
        ValueDef::Result { op, .. } => ir.parent_region(op),
        _ => None,
    }
}

/// Defined at the top level of an affine scope, or an argument of one.
fn is_top_level(ir: &Ir, v: Value) -> bool {
    let parent = match ir.value_def(v) {
        ValueDef::BlockArg { block, .. } => ir.block_parent(block).and_then(|r| ir.region_parent(r)),
        ValueDef::Result { op, .. } => ir.parent_op(op),
        _ => None,
    };
    parent.is_some_and(|p| has(ir, p, Traits::AFFINE_SCOPE))
}

fn is_induction_var(ir: &Ir, v: Value) -> bool {
    let ValueDef::BlockArg { block, .. } = ir.value_def(v) else { return false };
    let owner = ir.block_parent(block).and_then(|r| ir.region_parent(r));
    owner.is_some_and(|o| {
        let name = ir.op_name(o);
        name == "affine.parallel" || (name == "affine.for" && ir.block_args(block).first() == Some(&v))
    })
}

/// How deep a chain of pure ops is followed; deeper counts as no symbol
/// (a diagnostic rather than exhausting the stack).
const MAX_DEPTH: u32 = 10_000;

/// Whether `v` may be a symbol of an op in `region` (its affine scope).
pub(super) fn is_valid_symbol(ir: &Ir, v: Value, region: Option<RegionId>) -> bool {
    valid_symbol(ir, v, region, 0)
}

fn valid_symbol(ir: &Ir, v: Value, region: Option<RegionId>, depth: u32) -> bool {
    if !is_index(ir, v) || depth > MAX_DEPTH {
        return false;
    }
    if region.is_some() && defining_region(ir, v) == region {
        return true;
    }
    // Values from the region's enclosing regions, unless it is isolated.
    let dominating = || {
        let owner = region.and_then(|r| ir.region_parent(r))?;
        if has(ir, owner, Traits::ISOLATED_FROM_ABOVE) {
            return None;
        }
        ir.parent_region(owner)
    };
    let ValueDef::Result { op: def, .. } = ir.value_def(v) else {
        return dominating().is_some_and(|outer| valid_symbol(ir, v, Some(outer), depth + 1));
    };
    if has(ir, def, Traits::CONSTANT_LIKE) {
        return true;
    }
    if has(ir, def, Traits::PURE) && ir.operands(def).iter().all(|o| valid_symbol(ir, *o, region, depth + 1)) {
        return true;
    }
    if matches!(ir.op_name(def), "memref.dim" | "tensor.dim") {
        return dim_is_valid_symbol(ir, def, region, depth);
    }
    dominating().is_some_and(|outer| valid_symbol(ir, v, Some(outer), depth + 1))
}

/// A `dim` is a symbol when its buffer is a top-level value, or when the
/// size it reads is static or a symbol where the buffer was allocated or
/// viewed (through casts).
fn dim_is_valid_symbol(ir: &Ir, dim: OpId, region: Option<RegionId>, depth: u32) -> bool {
    let Some(&shaped) = ir.operands(dim).first() else { return false };
    if is_top_level(ir, shaped) {
        return true;
    }
    let Some(index) = ir.operands(dim).get(1).and_then(|i| crate::util::constant_int(ir, *i)) else {
        return false;
    };
    let mut def = ir.defining_op(shaped);
    while let Some(op) = def.filter(|op| ir.is_op(*op, "memref.cast")) {
        let source = ir.operand(op, 0);
        if matches!(ir.type_data(ir.value_type(source)), TypeData::UnrankedMemRef { .. }) {
            return false;
        }
        def = ir.defining_op(source);
    }
    let Some(op) = def.filter(|op| matches!(ir.op_name(*op), "memref.alloc" | "memref.view" | "memref.subview")) else {
        return false;
    };
    let Some(shape) = ir.type_data(ir.value_type(ir.result(op, 0))).shape().map(<[i64]>::to_vec) else {
        return false;
    };
    let Some(&size) = usize::try_from(index).ok().and_then(|i| shape.get(i)) else { return false };
    if size != DYNAMIC {
        return true;
    }
    // The dynamic sizes are the op's trailing `index` operands, in order.
    let dynamic_pos = shape[..index as usize].iter().filter(|s| **s == DYNAMIC).count();
    let n_dynamic = shape.iter().filter(|s| **s == DYNAMIC).count();
    let sizes = dynamic_sizes(ir, op, n_dynamic);
    sizes.get(dynamic_pos).is_some_and(|s| valid_symbol(ir, *s, region, depth + 1))
}

/// The operands giving a view's or allocation's dynamic sizes.
fn dynamic_sizes(ir: &Ir, op: OpId, count: usize) -> Vec<Value> {
    match ir.op_name(op) {
        "memref.alloc" => crate::util::segment(ir, op, 0).to_vec(),
        "memref.view" => ir.operands(op).iter().skip(2).copied().collect(),
        // subview: offsets, sizes, strides after the source; the sizes'
        // dynamic entries are its second group.
        _ => crate::util::segment(ir, op, 2).to_vec(),
    }
    .into_iter()
    .take(count)
    .collect()
}

/// Whether `v` may be a dimension of an op in `region`.
pub(super) fn is_valid_dim(ir: &Ir, v: Value, region: Option<RegionId>) -> bool {
    valid_dim(ir, v, region, 0)
}

fn valid_dim(ir: &Ir, v: Value, region: Option<RegionId>, depth: u32) -> bool {
    if !is_index(ir, v) || depth > MAX_DEPTH {
        return false;
    }
    if is_valid_symbol(ir, v, region) {
        return true;
    }
    let Some(def) = ir.defining_op(v) else { return is_induction_var(ir, v) };
    match ir.op_name(def) {
        "affine.apply" | "affine.delinearize_index" | "affine.linearize_index" => {
            ir.operands(def).iter().all(|o| valid_dim(ir, *o, region, depth + 1))
        }
        "memref.dim" | "tensor.dim" => ir.operands(def).first().is_some_and(|s| is_top_level(ir, *s)),
        _ => false,
    }
}

/// MLIR's `verifyDimAndSymbolIdentifiers`: the first `num_dims` operands
/// are dimensions, the rest symbols, of `op`'s affine scope.
pub(super) fn check_dims_and_symbols(
    ir: &Ir,
    op: OpId,
    operands: &[Value],
    num_dims: usize,
) -> Result<(), VerifyError> {
    let scope = affine_scope(ir, op);
    for (i, v) in operands.iter().enumerate() {
        if i < num_dims {
            if !is_valid_dim(ir, *v, scope) {
                return Err("operand cannot be used as a dimension id".into());
            }
        } else if !is_valid_symbol(ir, *v, scope) {
            return Err("operand cannot be used as a symbol".into());
        }
    }
    Ok(())
}
