//! `convert-elementwise-to-linalg`, MLIR's pass of that name: an `arith` or
//! `math` op (every op of both dialects is `ElementwiseMappable`) with a
//! ranked tensor operand, whose operands are all ranked tensors or scalars,
//! becomes a `linalg.generic` over its result's rank: identity maps for
//! tensors, an empty map for scalars, all loops parallel, and a body that is
//! the same op on the elements. Each result's out is the first operand of
//! the result's type, else a `tensor.empty` sized like the first tensor
//! operand (`tensor.dim` for its dynamic sizes). As upstream, the new ops are
//! located at the converted op, the body's arguments at their operands.
//! Unlike MLIR's conversion driver, ops are not folded before they are
//! converted (upstream turns e.g. `truncf(extf x)` on tensors into `x`).

use crate::conversion::empty_like;
use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{AttrData, Ir, OpId, OperationState, Type, TypeData, ValueMap};

pub struct ElementwiseToLinalg;

/// MLIR's `isScalarLike`: integers, floats, index, complex numbers.
fn scalar_like(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Integer { .. } | TypeData::Float(_) | TypeData::Index | TypeData::Complex(_))
}

fn ranked_tensor(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::RankedTensor { .. })
}

/// Whether `op` is converted: an elementwise-mappable op with a ranked
/// tensor operand and nothing but ranked tensors and scalars as operands
/// (and, as the conversion needs, ranked tensor results).
fn converts(ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    if !(name.starts_with("arith.") || name.starts_with("math.")) || ir.results(op).is_empty() {
        return false;
    }
    let types: Vec<Type> = ir.operands(op).iter().map(|v| ir.value_type(*v)).collect();
    types.iter().any(|t| ranked_tensor(ir, *t))
        && types.iter().all(|t| ranked_tensor(ir, *t) || scalar_like(ir, *t))
        && ir.results(op).iter().all(|r| ranked_tensor(ir, ir.value_type(*r)))
}

fn element(ir: &Ir, t: Type) -> Type {
    hivm_dialects::util::body_element(ir, t)
}

fn convert(ir: &mut Ir, op: OpId, replaced: &mut ValueMap) {
    let loc = ir.loc(op);
    let operands = ir.operands(op).to_vec();
    let result_types: Vec<Type> = ir.results(op).iter().map(|r| ir.value_type(*r)).collect();
    let rank = ir.type_data(result_types[0]).rank() as u32;
    let first_tensor = *operands.iter().find(|v| ranked_tensor(ir, ir.value_type(**v))).expect("checked by converts");
    let mut outs = Vec::new();
    for t in &result_types {
        let out = match operands.iter().find(|v| ir.value_type(**v) == *t) {
            Some(v) => *v,
            None => {
                let e = element(ir, *t);
                empty_like(ir, op, first_tensor, e)
            }
        };
        outs.push(out);
    }
    let identity = AffineMap { num_dims: rank, num_symbols: 0, results: (0..rank).map(AffineExpr::Dim).collect() };
    let scalar = AffineMap { num_dims: rank, num_symbols: 0, results: Vec::new() };
    let mut maps = Vec::new();
    for v in &operands {
        let m = if ranked_tensor(ir, ir.value_type(*v)) { &identity } else { &scalar };
        maps.push(ir.attr(AttrData::AffineMap(m.clone())));
    }
    for _ in &outs {
        maps.push(ir.attr(AttrData::AffineMap(identity.clone())));
    }
    let maps = ir.attr(AttrData::Array(maps));
    let parallel = hivm_dialects::util::opaque_attr(ir, "linalg", "iterator_type<parallel>");
    let iterators = ir.attr(AttrData::Array(vec![parallel; rank as usize]));
    let segments = hivm_dialects::util::segment_attr(ir, &[operands.len(), outs.len()]);

    // The body: the op itself on the elements, its results yielded.
    let region = ir.new_region();
    let block = ir.create_block();
    ir.push_block(region, block);
    let mut args = Vec::new();
    for v in operands.iter().chain(&outs) {
        // Each argument is located at its operand, as linalg's builder does.
        let t = element(ir, ir.value_type(*v));
        let at = ir.value_loc(*v).unwrap_or(loc);
        args.push(ir.add_block_arg(block, t, Some(at)));
    }
    let data = ir.op(op);
    let (name, properties, attrs) = (data.name, data.properties, data.attrs);
    let mut st = OperationState::new(name, loc);
    st.operands = args[..operands.len()].to_vec();
    st.result_types = result_types.iter().map(|t| element(ir, *t)).collect();
    st.properties = properties;
    st.attrs = ir.dict_entries(attrs).to_vec();
    let scalar_op = ir.create_op(st);
    ir.append_op(block, scalar_op);
    let values = ir.results(scalar_op).to_vec();
    Builder::new(ir, InsertPoint::End(block)).op("linalg.yield", &values, &[], vec![], loc);

    let sym = ir.sym("linalg.generic");
    let mut st = OperationState::new(sym, loc);
    st.operands = operands.iter().chain(&outs).copied().collect();
    st.result_types = result_types;
    st.regions = vec![region];
    let keys = [ir.sym("indexing_maps"), ir.sym("iterator_types"), ir.sym("operandSegmentSizes")];
    st.properties = Some(ir.dict_attr(keys.into_iter().zip([maps, iterators, segments]).collect()));
    let generic = ir.create_op(st);
    ir.insert_op_before(op, generic);
    for (old, new) in ir.results(op).to_vec().into_iter().zip(ir.results(generic).to_vec()) {
        replaced.insert(old, new);
    }
    ir.erase_op(op);
}

impl Pass for ElementwiseToLinalg {
    fn name(&self) -> &str {
        "convert-elementwise-to-linalg"
    }

    fn display_name(&self) -> &str {
        "ConvertElementwiseToLinalgPass"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut ops = Vec::new();
        ir.walk(root, &mut |o| {
            if converts(ir, o) {
                ops.push(o);
            }
        });
        let mut replaced = ValueMap::default();
        for op in ops {
            convert(ir, op, &mut replaced);
        }
        ir.replace_uses_with_map(root, &replaced);
        Ok(())
    }
}
