//! Sizes as MLIR's `OpFoldResult`s: static when every part is known,
//! otherwise one `affine.apply` summing the dynamic parts (as symbols, in
//! order) and the static rest, or the one dynamic value itself.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, Value};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Size {
    Static(i64),
    Dynamic(Value),
}

/// A value as a size: an `arith.constant` index folds to its value.
pub(super) fn of_value(ir: &Ir, v: Value) -> Size {
    match hivm_dialects::util::constant_int(ir, v) {
        Some(n) => Size::Static(n),
        None => Size::Dynamic(v),
    }
}

/// The sizes of `v`'s dimensions, `tensor.dim` (after an index constant)
/// for each dynamic one, built before `at` (MLIR's `getMixedSizes`).
pub(super) fn mixed_sizes(ir: &mut Ir, at: OpId, v: Value) -> Vec<Size> {
    let shape = ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec).unwrap_or_default();
    shape
        .iter()
        .enumerate()
        .map(|(d, n)| if *n == DYNAMIC { Size::Dynamic(dim(ir, at, v, d)) } else { Size::Static(*n) })
        .collect()
}

/// `tensor.dim %v, %c<d>` before `at`.
pub(super) fn dim(ir: &mut Ir, at: OpId, v: Value, d: usize) -> Value {
    let loc = ir.loc(at);
    let index = ir.index_type();
    let c = ir.int_attr(d as i128, index);
    let c = Builder::new(ir, InsertPoint::Before(at)).op("arith.constant", &[], &[index], vec![("value", c)], loc);
    let c = ir.result(c, 0);
    let d = Builder::new(ir, InsertPoint::Before(at)).op("tensor.dim", &[v, c], &[index], vec![], loc);
    ir.result(d, 0)
}

/// The sum of `parts`, folded as `affine::makeComposedFoldedAffineApply`
/// folds a sum of symbols.
pub(super) fn sum(ir: &mut Ir, at: OpId, parts: &[Size]) -> Size {
    let mut constant = 0i64;
    let mut symbols: Vec<Value> = Vec::new();
    for p in parts {
        match p {
            Size::Static(n) => constant += n,
            Size::Dynamic(v) => symbols.push(*v),
        }
    }
    match (symbols.as_slice(), constant) {
        ([], _) => return Size::Static(constant),
        ([v], 0) => return Size::Dynamic(*v),
        _ => {}
    }
    let names: Vec<String> = (0..symbols.len()).map(|i| format!("s{i}")).collect();
    let mut expr = names.join(" + ");
    if constant != 0 {
        expr = format!("{expr} + {constant}");
    }
    let text = format!("affine_map<()[{}] -> ({expr})>", names.join(", "));
    let map = {
        let mut p = hivm_ir::parser::Parser::new(ir, &text, "<convert-tensor-to-hivm>", 1);
        p.parse_attribute(None).unwrap_or_else(|e| panic!("internal affine map '{text}': {}", e.msg))
    };
    let loc = ir.loc(at);
    let index = ir.index_type();
    let a = Builder::new(ir, InsertPoint::Before(at)).op("affine.apply", &symbols, &[index], vec![("map", map)], loc);
    Size::Dynamic(ir.result(a, 0))
}

/// `tensor.empty` of `sizes` and `elem` before `at`.
pub(super) fn empty(ir: &mut Ir, at: OpId, sizes: &[Size], elem: hivm_ir::Type) -> Value {
    let shape: Vec<i64> = sizes.iter().map(|s| if let Size::Static(n) = s { *n } else { DYNAMIC }).collect();
    let dynamic: Vec<Value> =
        sizes.iter().filter_map(|s| if let Size::Dynamic(v) = s { Some(*v) } else { None }).collect();
    let t = ir.ty(hivm_ir::TypeData::RankedTensor { shape, elem, encoding: None });
    let loc = ir.loc(at);
    let e = Builder::new(ir, InsertPoint::Before(at)).op("tensor.empty", &dynamic, &[t], vec![], loc);
    ir.result(e, 0)
}
